import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { and, eq, sql } from 'drizzle-orm';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { reactivationChargeCents } from '@dealerpass/domain/billing/charges';
import { nextBillDate } from '@dealerpass/domain/billing/renewal-calendar';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import { quote, type IQuote } from '@dealerpass/domain/prices';
import { CARD_MESSAGES } from '@dealerpass/domain/schemas/messages';
import {
  calendarDateIn,
  parseIsoDate,
  toIsoDate,
  type ICalendarDate,
} from '@dealerpass/domain/time/calendar-date';
import { billingPeriods, REACTIVATION_PERIOD, subscriptions } from '../../db/schema.ts';
import type { Transaction } from '../../db/client.ts';
import { AppError } from '../../errors/app-error.ts';
import { oncePerKey } from '../request-keys/once-per-key.ts';
import { getUserRow } from '../users/get-user-row.ts';
import type { UserRow } from '../users/serialize-user.ts';
import { CARRIED_BALANCE_CODE, getBalanceCents } from './account-balance.ts';
import { getSubscriptionRow, type BillingApiDeps } from './billing-context.ts';
import { storePaymentProfile, type PaymentProfileInput } from './payment-profile.ts';
import { CHARGE_LEASE_MS, keepLeased } from './charge-lease.ts';
import type { ClaimedRenewal } from './ledger/billing-deps.ts';
import { completeReactivation } from './ledger/complete-reactivation.ts';
import { failReactivation } from './ledger/fail-reactivation.ts';
import { sendCharge } from './ledger/send-charge.ts';
import { changeAccountStatus } from './ledger/change-account-status.ts';
import { lockAccount } from './ledger/lock-account.ts';
import { applyDueRemovals } from './run/apply-pending-removals.ts';
import { closeOwedYears } from '../annual-billing/owed-year.ts';
import { monthBilledOn, paidYearAfter, paidYearOn } from '../annual-billing/paid-year.ts';
import { advancePeriod } from './ledger/advance-periods.ts';

const reactivationFailed = (cause?: unknown) =>
  new AppError(ERROR_CODES.REACTIVATION_FAILED, cause === undefined ? {} : { cause });

/**
 * PUT /api/users/reactivate (R4).
 * - Pending cancel: back to active, no charge (a card sent along is saved).
 * - Inactive: the card is saved as in PUT /api/users/paymentProfile, then the current monthly
 *   price of the previous selections plus any balance is charged as a 'reactivation' period
 *   starting today (unique per account and period; key `reactivation:<user>:<date>`, with
 *   `:<attempt>` appended for a later attempt the same day). The account is pending
 *   reactivation while the charge is in flight, then active with a new cycle anchor of today
 *   and the balance cleared, with a payment row and its stored receipt. R14: inside a paid year
 *   (its first day included) only the balance is charged and the cycle stays the year's
 *   (decisions 058, 060); before one the cycle stays too and leads into the year, the period
 *   running to its next bill date (decision 060). A decline (or a refusal
 *   no retry can change) puts it back to inactive and answers 000 §8's reactivation text. A
 *   gateway that does not answer leaves it pending reactivation under a lease: the charge may
 *   have gone through, so the billing run resends the same request (same key, same card) when
 *   the lease runs out and finishes the reactivation either way (also after a crash).
 * Once per request key (`oncePerKey`, decisions 031 and 038): the key is recorded in the
 * transaction that restores the account or opens the period, before the gateway is asked; the
 * same request again (an answer lost on its way back, a balancer's retry) stores no card and
 * sends no charge, and answers how the first one ended.
 */
export async function reactivate(
  deps: BillingApiDeps,
  userId: string,
  input: PaymentProfileInput & { requestKey: string },
): Promise<UserRow> {
  const keyed = { owner: { userId }, action: 'reactivate', target: {}, body: input };
  await oncePerKey<Reactivation>(deps.db, keyed, {
    run: (record) => reactivateOnce(deps, userId, input, record),
    repeat: (first) => repeatOf(deps, userId, first),
  });
  return getUserRow(deps.db, userId);
}

/**
 * What a reactivation's key records (docs/decisions/038): the account restored during pending
 * cancel, or the day whose reactivation period it charges. A repeat answers from it.
 */
type Reactivation = { restored: true } | { periodStart: string };
type RecordKey = (tx: Transaction, answer: Reactivation) => Promise<void>;

/**
 * The same request again (a retry after a lost answer, through the balancer or the browser): no
 * second card and no second charge. The period it opened says how the first one ended: paid,
 * the account as it is now; declined, the decline again; still charging, 409 (the billing run
 * finishes a charge whose request stopped, docs/decisions/038).
 */
async function repeatOf(
  deps: BillingApiDeps,
  userId: string,
  first: Reactivation,
): Promise<Reactivation> {
  if ('restored' in first) return first;
  const [period] = await deps.db
    .select({ status: billingPeriods.status })
    .from(billingPeriods)
    .where(
      and(
        eq(billingPeriods.userId, userId),
        eq(billingPeriods.periodStart, first.periodStart),
        REACTIVATION_PERIOD,
      ),
    );
  if (period?.status === 'paid') return first;
  if (period?.status === 'failed') {
    throw new AppError(ERROR_CODES.REACTIVATION_FAILED, {
      message: errorMessage(ERROR_CODES.REACTIVATION_FAILED),
    });
  }
  throw new AppError(ERROR_CODES.ACTION_IN_PROGRESS);
}

/** The reactivation itself; `record` keeps the request's key in its first transaction. */
async function reactivateOnce(
  deps: BillingApiDeps,
  userId: string,
  input: PaymentProfileInput,
  record: RecordKey,
): Promise<Reactivation> {
  const user = await getUserRow(deps.db, userId);
  const hasToken = input.paymentToken.trim() !== '';

  if (user.accountStatus === ACCOUNT_STATUS.pendingCancel) {
    if (hasToken) await storePaymentProfile(deps, userId, input, { retryDueRenewal: false });
    const now = deps.now();
    const restored: Reactivation = { restored: true };
    await deps.db.transaction(async (tx) => {
      // The key first (decision 031), then the account (decision 028).
      await record(tx, restored);
      const current = await lockAccount(tx, userId);
      if (current?.accountStatus !== ACCOUNT_STATUS.pendingCancel) throw reactivationFailed();
      await tx
        .update(subscriptions)
        .set({ cancelRequestedAt: null, updatedAt: now })
        .where(eq(subscriptions.userId, userId));
      await changeAccountStatus(tx, {
        userId,
        from: ACCOUNT_STATUS.pendingCancel,
        event: 'reactivate',
        note: 'reactivated during pending cancel: no charge',
        actor: 'user',
        now,
      });
    });
    return restored;
  }

  if (user.accountStatus !== ACCOUNT_STATUS.inactive) throw reactivationFailed();
  if (!hasToken) {
    throw new AppError(ERROR_CODES.VALIDATION_FAILED, {
      errors: [{ source: 'paymentToken', message: CARD_MESSAGES.numberRequired }],
    });
  }
  await storePaymentProfile(deps, userId, input, { retryDueRenewal: false });

  const lease = new Date(deps.now().getTime() + CHARGE_LEASE_MS);
  const claimed = await openReactivationPeriod(deps, userId, lease, record);
  // R14 (decision 058): reactivated inside a paid year with nothing owed, no charge was needed.
  if (claimed === null)
    return { periodStart: toIsoDate(calendarDateIn(deps.now(), deps.timeZone)) };
  // Renewed while the gateway answers, so the run takes over only a request that stopped.
  const leases = keepLeased(deps, [userId], lease);
  const outcome = await sendCharge(deps, claimed).finally(() => leases.stop());
  if (outcome.status === 'retry') {
    // The gateway did not answer (or asked for a later try): the charge may have gone through.
    // The account stays pending reactivation, and when the lease runs out the billing run sends
    // the same request again under the same key and finishes the reactivation either way.
    throw reactivationFailed();
  }
  const now = deps.now();
  if (outcome.status === 'approved') {
    await deps.db.transaction((tx) =>
      completeReactivation(tx, deps, claimed, outcome.transactionId, now, 'user'),
    );
    return { periodStart: claimed.periodStart };
  }
  await deps.db.transaction((tx) => failReactivation(tx, claimed, outcome.reason, now, 'user'));
  throw new AppError(ERROR_CODES.REACTIVATION_FAILED, {
    message: errorMessage(ERROR_CODES.REACTIVATION_FAILED),
  });
}

/** In one transaction: the period of today (created or reopened) and pending reactivation. */
async function openReactivationPeriod(
  deps: BillingApiDeps,
  userId: string,
  lease: Date,
  record: RecordKey,
): Promise<(ClaimedRenewal & { periodStart: string }) | null> {
  const now = deps.now();
  const todayDate = calendarDateIn(now, deps.timeZone);
  const today = toIsoDate(todayDate);
  return deps.db.transaction(async (tx) => {
    // The request's key first (decision 031): a repeat waits for this transaction and answers
    // from its period; a refusal below rolls the key back with everything else.
    await record(tx, { periodStart: today });
    // The account, then its subscription (docs/decisions/028).
    const user = await lockAccount(tx, userId);
    const subscription = await getSubscriptionRow(tx, userId, true);
    if (!subscription || !user || user.accountStatus !== ACCOUNT_STATUS.inactive)
      throw reactivationFailed();
    if (!subscription.gatewayCustomerId || !subscription.gatewayPaymentProfileId) {
      throw reactivationFailed();
    }
    // R14 (decision 058): inside a paid year no card charge falls and the cycle stays the year's;
    // the reactivation charges only what the account owes, and the year goes on (from its first
    // day on, decision 060).
    const year = await paidYearOn(tx, userId, today);
    // R14 (decision 060): before a paid year the cycle stays too, so that it leads into the year;
    // the reactivation runs to the next bill date and charges what R4 says is due before it: the
    // balance, and the month only if the month it falls in was never billed.
    const ahead = year ? null : await paidYearAfter(tx, userId, today);
    const keepsCycle = year !== null || ahead !== null;
    // R10: removals a change left pending end with the old cycle, so a new one starts without
    // them; a kept cycle drops only those whose bill date has come.
    await applyDueRemovals(
      tx,
      [
        keepsCycle
          ? { ...subscription, periodStart: today }
          : { ...subscription, periodStart: today, pendingRemovalsAt: null },
      ],
      now,
    );
    const balanceOnly =
      year !== null || (ahead !== null && (await monthBilledOn(tx, userId, today)));
    // R14: a year a returned check left owed is in the balance this charge collects.
    await closeOwedYears(tx, userId, now);
    const [current] = await tx
      .select({ codes: subscriptions.codes })
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    const codes = (current?.codes ?? subscription.codes) as TSubscriptionCode[];
    const balanceCents = await getBalanceCents(tx, userId);
    const amountCents = balanceOnly
      ? Math.max(0, balanceCents)
      : reactivationChargeCents(codes, now, balanceCents, deps.prices.table());
    const priced = balanceOnly
      ? { lines: [], subtotalCents: 0, platformFeeCents: 0, totalCents: 0 }
      : quote(codes, now, deps.prices.table());
    const adjustment = amountCents - priced.totalCents;
    const charged: IQuote = {
      ...priced,
      // The balance owed (or the credit used) is a line of its own on the receipt.
      lines:
        adjustment === 0
          ? priced.lines
          : [
              ...priced.lines,
              {
                code: CARRIED_BALANCE_CODE as TSubscriptionCode,
                name: adjustment > 0 ? 'Previous balance' : 'Account credit',
                cents: adjustment,
                listCents: adjustment,
                free: false,
              },
            ],
      totalCents: amountCents,
    };
    // In a paid year the period runs to the year's end, the account's next bill date; before one,
    // to the kept cycle's next bill date (the year's first day at the latest).
    const periodEnd = year
      ? year.periodEnd
      : ahead
        ? leadInto(ahead.periodStart, subscription.cycleAnchor, todayDate)
        : toIsoDate(nextBillDate(todayDate, todayDate));
    // A reactivation of the day charged back since (its period no longer billed, decision 034)
    // keeps its key: the day's next reactivation is a new charge under a key of its own.
    const [undone] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(billingPeriods)
      .where(
        and(
          eq(billingPeriods.userId, userId),
          eq(billingPeriods.kind, 'reactivation'),
          eq(billingPeriods.periodStart, today),
          eq(billingPeriods.status, 'refunded'),
        ),
      );
    const dayKey = `reactivation:${userId}:${today}`;
    const count = Number(undone?.count ?? 0);
    await tx
      .insert(billingPeriods)
      .values({
        userId,
        kind: 'reactivation',
        periodStart: today,
        periodEnd,
        amountCents,
        quote: charged,
        idempotencyKey: count === 0 ? dayKey : `${dayKey}:${count + 1}`,
      })
      .onConflictDoNothing({
        target: [billingPeriods.userId, billingPeriods.periodStart],
        where: REACTIVATION_PERIOD,
      });
    const [period] = await tx
      .select()
      .from(billingPeriods)
      .where(
        and(
          eq(billingPeriods.userId, userId),
          eq(billingPeriods.periodStart, today),
          REACTIVATION_PERIOD,
        ),
      );
    if (!period || period.status === 'paid') {
      throw reactivationFailed();
    }
    if (keepsCycle && balanceOnly && amountCents === 0) {
      // Nothing owed: active again on its cycle at once, with no charge to send. The period
      // (nothing billed) is what a repeat of the request answers from; the account's period is
      // the year (passed from its first day, as the run would have) or runs into it.
      await tx
        .update(billingPeriods)
        .set({ status: 'paid', settledAt: now, amountCents, quote: charged })
        .where(eq(billingPeriods.id, period.id));
      for (const [from, event] of [
        [ACCOUNT_STATUS.inactive, 'reactivationCharging'],
        [ACCOUNT_STATUS.pendingReactivation, 'reactivationSucceeded'],
      ] as const) {
        await changeAccountStatus(tx, {
          userId,
          from,
          event,
          note: year
            ? 'reactivated inside a paid year: nothing owed'
            : 'reactivated before a paid year: nothing owed',
          actor: 'user',
          now,
        });
      }
      await tx
        .update(subscriptions)
        .set({ failedAttempts: 0, nextRetryAt: null, updatedAt: now })
        .where(eq(subscriptions.userId, userId));
      await advancePeriod(tx, userId, periodEnd, year ? year.periodStart : today, now);
      return null;
    }
    // The attempt charges the card just saved; a retry of it (after a crash) charges the same.
    const card = {
      gatewayCustomerId: subscription.gatewayCustomerId,
      gatewayPaymentProfileId: subscription.gatewayPaymentProfileId,
      cardBrand: user.cardBrand,
      cardLast4: user.cardLast4,
    };
    await tx
      .update(billingPeriods)
      .set(
        period.status === 'failed'
          ? { status: 'due', settledAt: null, amountCents, quote: charged, periodEnd, ...card }
          : card,
      )
      .where(eq(billingPeriods.id, period.id));
    // Leased while the request charges; if it never finishes, the billing run does after this.
    await tx
      .update(subscriptions)
      .set({ nextRetryAt: lease, updatedAt: now })
      .where(eq(subscriptions.userId, userId));
    await changeAccountStatus(tx, {
      userId,
      from: ACCOUNT_STATUS.inactive,
      event: 'reactivationCharging',
      note: 'reactivation charge in flight',
      actor: 'user',
      now,
    });
    return {
      userId,
      periodId: period.id,
      kind: 'reactivation',
      idempotencyKey: period.idempotencyKey,
      amountCents: period.status === 'failed' ? amountCents : period.amountCents,
      customerProfileId: subscription.gatewayCustomerId,
      paymentProfileId: subscription.gatewayPaymentProfileId,
      cardBrand: user.cardBrand,
      cardLast4: user.cardLast4,
      periodStart: today,
    };
  });
}

/**
 * The end of a reactivation before a paid year (decision 060): the kept cycle's next bill date,
 * never past the year's first day (a year is always on a bill date of the cycle it was paid on).
 */
function leadInto(yearStart: string, cycleAnchor: string, today: ICalendarDate): string {
  const next = toIsoDate(nextBillDate(parseIsoDate(cycleAnchor)!, today));
  return next < yearStart ? next : yearStart;
}
