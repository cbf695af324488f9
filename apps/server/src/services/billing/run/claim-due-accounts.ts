import { and, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { quote, type IQuote, type TPriceTable } from '@dealerpass/domain/prices';
import { nextBillDate } from '@dealerpass/domain/billing/renewal-calendar';
import { calendarDateIn, parseIsoDate, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import {
  BILLING_DUE_STATUSES,
  isWaived,
  PENDING_REACTIVATION,
} from '@dealerpass/domain/account/status-transitions';
import { anyOf, unnestRows } from '../../../db/bulk.ts';
import type { Transaction } from '../../../db/client.ts';
import { BILLED_PERIOD, billingPeriods, subscriptions, users } from '../../../db/schema.ts';
import { CHARGE_LEASE_MS } from '../charge-lease.ts';
import { advancePeriod } from '../ledger/advance-periods.ts';
import type { BillingDeps, BillingRunResult, ClaimedRenewal } from '../ledger/billing-deps.ts';
import { recordDecline } from '../ledger/record-decline.ts';
import { changeAccountStatus } from '../ledger/change-account-status.ts';
import { passPaidAnnualPeriods } from '../../annual-billing/annual-jobs.ts';
import { paidYearAfter } from '../../annual-billing/paid-year.ts';
import { applyDueRemovals } from './apply-pending-removals.ts';
import { endCancellation } from './end-cancellation.ts';
import { preferIndexLookups } from './prefer-index-lookups.ts';

/** What the claim reads of a billing period (raw SQL: dates as text, like the schema's). */
interface ClaimedPeriod {
  id: string;
  userId: string;
  status: (typeof billingPeriods.$inferSelect)['status'];
  periodStart: string;
  periodEnd: string;
  amountCents: number;
  idempotencyKey: string;
  gatewayCustomerId: string | null;
  gatewayPaymentProfileId: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
}

const PERIOD_FIELDS = sql.raw(
  `id, user_id as "userId", status, period_start::text as "periodStart",
  period_end::text as "periodEnd", amount_cents as "amountCents",
  idempotency_key as "idempotencyKey", gateway_customer_id as "gatewayCustomerId",
  gateway_payment_profile_id as "gatewayPaymentProfileId", card_brand as "cardBrand",
  card_last4 as "cardLast4"`,
);

const isoDate = (text: string) => {
  const date = parseIsoDate(text);
  if (!date) throw new Error(`not a date: ${text}`);
  return date;
};

/** A claimed batch and the lease its accounts hold (the same instant for all of them). */
export interface ClaimedBatch {
  renewals: ClaimedRenewal[];
  lease: Date;
}

/** Phase 1, in one transaction: lock a batch of due accounts, end cancellations, open periods. */
export async function claimDueAccounts(
  deps: BillingDeps,
  batchSize: number,
  result: BillingRunResult,
  options: ClaimOptions,
): Promise<ClaimedBatch | null> {
  const now = deps.now();
  const lease = new Date(now.getTime() + CHARGE_LEASE_MS);
  return deps.db.transaction(async (tx) => {
    await preferIndexLookups(tx);
    const due = await lockDueAccounts(tx, deps, now, batchSize, options);
    if (due.length === 0) return null;
    // Accounts whose bill date has come: an owed year (R14) makes an account due before it.
    const today = toIsoDate(calendarDateIn(now, deps.timeZone));
    const reached = due.filter((account) => !account.owedYear || account.periodStart <= today);
    // R10: removals whose bill date has come leave the selection before it is billed.
    await applyDueRemovals(tx, reached, now);
    // R14: a bill date that starts a year paid by check charges nothing; the account moves past it.
    const paidByCheck = await passPaidAnnualPeriods(tx, reached, now);
    const renewals: ClaimedRenewal[] = [];
    const toOpen: DueAccount[] = [];
    for (const account of due) {
      if (account.owedYear) {
        // R14: a year whose check came back is owed from the day it was returned, whatever the
        // bill date, and charged before anything else: R4's attempts charge the card on file
        // (decision 052). The period is the returned year's, owed since the return.
        if (!account.customerProfileId || !account.paymentProfileId) {
          await recordDecline(
            tx,
            deps,
            account.userId,
            now,
            'no card on file',
            account.owedYear.id,
          );
          result.declined += 1;
        } else {
          toOpen.push({ ...account, periodStart: account.owedYear.periodStart });
        }
        continue;
      }
      if (paidByCheck.has(account.userId)) continue;
      if (isWaived(account.status, account.complimentary)) {
        await waivePeriod(tx, account, now);
        continue;
      }
      if (
        account.status === ACCOUNT_STATUS.pendingCancel &&
        // R14 (decision 058): a cancellation takes effect at the end of a paid year; the months
        // before a paid year that has not begun are billed as usual, to its start.
        !(await paidYearAfter(tx, account.userId, account.periodStart))
      ) {
        if (await endCancellation(tx, account.userId, now)) result.deactivated += 1;
        continue;
      }
      if (account.status === PENDING_REACTIVATION) {
        const resumed = await resumeReactivation(tx, deps, account.userId, lease, now);
        if (resumed) renewals.push(resumed);
        continue;
      }
      if (!account.customerProfileId || !account.paymentProfileId) {
        // No card on file: the renewal cannot be charged; treated as a declined charge.
        await recordDecline(tx, deps, account.userId, now, 'no card on file');
        result.declined += 1;
        continue;
      }
      toOpen.push(account);
    }
    if (toOpen.length > 0) {
      const periods = await openPeriods(tx, toOpen, now, deps.prices.table());
      renewals.push(...(await leaseAttempts(tx, toOpen, periods, lease, now)));
    }
    return { renewals, lease };
  });
}

interface ClaimOptions {
  /** Only this account (a new card's immediate retry, R4). */
  userId?: string | undefined;
  /** Only attempts a stopped run or request left behind. */
  abandonedOnly?: boolean | undefined;
}

type DueAccount = Awaited<ReturnType<typeof lockDueAccounts>>[number];

/**
 * The statuses whose owed year (R14, a returned check) the run charges with R4's attempts: the
 * billed ones, and a pending cancellation too (decision 054). The year is owed already, not a
 * further charge (R4), so a dealer who cancels after the return is still charged for it; the
 * cancellation waits while it is owed and takes effect at the year's end once it is paid, or the
 * account becomes inactive at the last retry.
 */
const OWED_YEAR_STATUSES = [
  ACCOUNT_STATUS.active,
  ACCOUNT_STATUS.validatingPayment,
  ACCOUNT_STATUS.pendingCancel,
] as const;

/** The batch's due accounts, locked; rows other runs hold are skipped, so runs share the work. */
async function lockDueAccounts(
  tx: Transaction,
  deps: Pick<BillingDeps, 'timeZone'>,
  now: Date,
  batchSize: number,
  options: ClaimOptions,
) {
  const onlyUserId = options.userId;
  const today = toIsoDate(calendarDateIn(now, deps.timeZone));
  // R14: the year a returned check left owed (one at most: the account's due annual period).
  const owedYears = tx
    .select({ userId: billingPeriods.userId })
    .from(billingPeriods)
    .where(and(eq(billingPeriods.kind, 'annual'), eq(billingPeriods.status, 'due')));
  const accounts = await tx
    .select({
      userId: subscriptions.userId,
      codes: subscriptions.codes,
      autoExtras: subscriptions.autoExtras,
      pendingRemovals: subscriptions.pendingRemovals,
      pendingRemovalsAt: subscriptions.pendingRemovalsAt,
      cycleAnchor: subscriptions.cycleAnchor,
      periodStart: subscriptions.currentPeriodEnd,
      customerProfileId: subscriptions.gatewayCustomerId,
      paymentProfileId: subscriptions.gatewayPaymentProfileId,
      status: users.accountStatus,
      complimentary: users.complimentary,
      cardBrand: users.cardBrand,
      cardLast4: users.cardLast4,
    })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(
      and(
        or(
          and(
            lte(subscriptions.currentPeriodEnd, today),
            inArray(users.accountStatus, [...BILLING_DUE_STATUSES]),
          ),
          // Only with a lease that ran out: a reactivation whose request never finished.
          and(eq(users.accountStatus, PENDING_REACTIVATION), lte(subscriptions.nextRetryAt, now)),
          // R14: a year owed after a returned check, from the day of the return.
          and(
            inArray(users.accountStatus, [...OWED_YEAR_STATUSES]),
            eq(users.complimentary, false),
            inArray(subscriptions.userId, owedYears),
          ),
        ),
        or(isNull(subscriptions.nextRetryAt), lte(subscriptions.nextRetryAt, now)),
        onlyUserId ? eq(subscriptions.userId, onlyUserId) : undefined,
        // A claimed attempt keeps its card on the period until it is settled or declined.
        options.abandonedOnly
          ? sql`exists (select 1 from ${billingPeriods} where ${billingPeriods.userId} = ${subscriptions.userId} and ${billingPeriods.status} = 'due' and ${billingPeriods.gatewayPaymentProfileId} is not null)`
          : undefined,
      ),
    )
    .orderBy(subscriptions.currentPeriodEnd)
    .limit(batchSize)
    // The account's row is locked with its subscription: a row another batch changed and
    // released since this statement began is read again as it is now, not as it was. The
    // account lock is lockAccount's (docs/decisions/028); skipping what others hold, the claim
    // never waits, so it cannot take part in a deadlock.
    .for('no key update', { of: [subscriptions, users], skipLocked: true });
  const charged = accounts.filter(
    (account) =>
      (OWED_YEAR_STATUSES as readonly string[]).includes(account.status) && !account.complimentary,
  );
  const owed =
    charged.length === 0
      ? []
      : await tx
          .select({
            id: billingPeriods.id,
            userId: billingPeriods.userId,
            periodStart: billingPeriods.periodStart,
          })
          .from(billingPeriods)
          .where(
            and(
              anyOf(
                billingPeriods.userId,
                charged.map((account) => account.userId),
                'uuid',
              ),
              eq(billingPeriods.kind, 'annual'),
              eq(billingPeriods.status, 'due'),
            ),
          );
  const owedOf = new Map(owed.map((period) => [period.userId, period]));
  return accounts.map((account) => ({ ...account, owedYear: owedOf.get(account.userId) ?? null }));
}

/** R4: complimentary accounts are not charged; their period still moves on, recorded as waived. */
async function waivePeriod(tx: Transaction, account: DueAccount, now: Date): Promise<void> {
  const periodEnd = toIsoDate(
    nextBillDate(isoDate(account.cycleAnchor), isoDate(account.periodStart)),
  );
  await tx
    .insert(billingPeriods)
    .values({
      userId: account.userId,
      kind: 'renewal',
      periodStart: account.periodStart,
      periodEnd,
      amountCents: 0,
      quote: { lines: [], subtotalCents: 0, platformFeeCents: 0, totalCents: 0 },
      status: 'waived',
      idempotencyKey: `renewal:${account.userId}:${account.periodStart}:waived`,
      settledAt: now,
    })
    .onConflictDoNothing({
      target: [billingPeriods.userId, billingPeriods.periodStart],
      where: BILLED_PERIOD,
    });
  await advancePeriod(tx, account.userId, periodEnd, account.periodStart, now);
}

/** Every period of the batch in one statement; an existing one (a retry) is read as it is. */
async function openPeriods(
  tx: Transaction,
  toOpen: readonly DueAccount[],
  now: Date,
  table: TPriceTable,
): Promise<ClaimedPeriod[]> {
  const priced = new Map<string, IQuote>(
    toOpen.map((account) => [
      account.userId,
      quote(account.codes as TSubscriptionCode[], now, table),
    ]),
  );
  const quoteOf = (account: (typeof toOpen)[number]) => priced.get(account.userId)!;
  const opened = unnestRows(toOpen, {
    user_id: ['uuid', (account) => account.userId],
    kind: ['text', () => 'renewal'],
    period_start: ['date', (account) => account.periodStart],
    period_end: [
      'date',
      (account) =>
        toIsoDate(nextBillDate(isoDate(account.cycleAnchor), isoDate(account.periodStart))),
    ],
    amount_cents: ['int', (account) => quoteOf(account).totalCents],
    quote: ['jsonb', (account) => JSON.stringify(quoteOf(account))],
    idempotency_key: ['text', (account) => `renewal:${account.userId}:${account.periodStart}:1`],
    gateway_customer_id: ['text', (account) => account.customerProfileId],
    gateway_payment_profile_id: ['text', (account) => account.paymentProfileId],
    card_brand: ['text', (account) => account.cardBrand],
    card_last4: ['text', (account) => account.cardLast4],
  });
  const inserted = (await tx.execute(sql`
    insert into ${billingPeriods} (${opened.names}) ${opened.select}
    on conflict (user_id, period_start) where ${BILLED_PERIOD} do nothing
    returning ${PERIOD_FIELDS}`)) as unknown as { rows: ClaimedPeriod[] };
  const periods = inserted.rows;
  if (periods.length < toOpen.length) {
    // Periods opened by an earlier run (a crash, a decline's next attempt): read as they are.
    const fresh = new Set(periods.map((period) => period.userId));
    const earlier = toOpen.filter((account) => !fresh.has(account.userId));
    const found = (await tx.execute(sql`
      select ${PERIOD_FIELDS} from ${billingPeriods}
      where ${anyOf(
        billingPeriods.userId,
        earlier.map((account) => account.userId),
        'uuid',
      )} and ${BILLED_PERIOD} and (user_id, period_start) in (${
        unnestRows(earlier, {
          user_id: ['uuid', (account) => account.userId],
          period_start: ['date', (account) => account.periodStart],
        }).select
      })`)) as unknown as { rows: ClaimedPeriod[] };
    periods.push(...found.rows);
  }
  return periods;
}

/**
 * Each opened period's attempt, with the card it charges (the card on file for a new attempt
 * after a decline), and the lease on its account. A period already paid (a crash after its
 * record) only has its account moved on.
 */
async function leaseAttempts(
  tx: Transaction,
  toOpen: readonly DueAccount[],
  periods: readonly ClaimedPeriod[],
  lease: Date,
  now: Date,
): Promise<ClaimedRenewal[]> {
  const renewals: ClaimedRenewal[] = [];
  const periodOf = new Map(periods.map((period) => [period.userId, period]));
  const leased: string[] = [];
  for (const account of toOpen) {
    const period = periodOf.get(account.userId);
    if (!period) throw new Error('billing period vanished');
    if (period.status === 'paid') {
      // A crash after the payment was recorded but before the period advanced: finish that step.
      await advancePeriod(tx, account.userId, period.periodEnd, period.periodStart, now);
      continue;
    }
    let card = {
      customerProfileId: period.gatewayCustomerId,
      paymentProfileId: period.gatewayPaymentProfileId,
      cardBrand: period.cardBrand,
      cardLast4: period.cardLast4,
    };
    if (!card.customerProfileId || !card.paymentProfileId) {
      // A new attempt after a decline: it charges the card on file now.
      card = {
        customerProfileId: account.customerProfileId,
        paymentProfileId: account.paymentProfileId,
        cardBrand: account.cardBrand,
        cardLast4: account.cardLast4,
      };
      await tx
        .update(billingPeriods)
        .set({
          gatewayCustomerId: card.customerProfileId,
          gatewayPaymentProfileId: card.paymentProfileId,
          cardBrand: card.cardBrand,
          cardLast4: card.cardLast4,
        })
        .where(eq(billingPeriods.id, period.id));
    }
    leased.push(account.userId);
    renewals.push({
      userId: account.userId,
      periodId: period.id,
      kind: 'renewal',
      idempotencyKey: period.idempotencyKey,
      amountCents: period.amountCents,
      customerProfileId: card.customerProfileId!,
      paymentProfileId: card.paymentProfileId!,
      cardBrand: card.cardBrand,
      cardLast4: card.cardLast4,
    });
  }
  if (leased.length > 0) {
    await tx
      .update(subscriptions)
      .set({ nextRetryAt: lease, updatedAt: now })
      .where(anyOf(subscriptions.userId, leased, 'uuid'));
  }
  return renewals;
}

/**
 * A reactivation whose request stopped (a crash, a lost connection) after it claimed its period:
 * its charge is sent again with the same key and card, and finished like the request would have.
 */
async function resumeReactivation(
  tx: Transaction,
  deps: BillingDeps,
  userId: string,
  lease: Date,
  now: Date,
): Promise<ClaimedRenewal | null> {
  const [period] = await tx
    .select()
    .from(billingPeriods)
    .where(
      and(
        eq(billingPeriods.userId, userId),
        eq(billingPeriods.kind, 'reactivation'),
        eq(billingPeriods.status, 'due'),
      ),
    )
    .orderBy(desc(billingPeriods.periodStart))
    .limit(1);
  if (!period?.gatewayCustomerId || !period.gatewayPaymentProfileId) {
    // Pending reactivation is only ever set together with its due period and card.
    deps.log.warn({ userId }, 'pending reactivation without its period: back to inactive');
    await changeAccountStatus(tx, {
      userId,
      from: PENDING_REACTIVATION,
      event: 'reactivationAbandoned',
      note: 'reactivation abandoned',
      actor: 'billing-run',
      now,
    });
    await tx
      .update(subscriptions)
      .set({ nextRetryAt: null, updatedAt: now })
      .where(eq(subscriptions.userId, userId));
    return null;
  }
  await tx
    .update(subscriptions)
    .set({ nextRetryAt: lease, updatedAt: now })
    .where(eq(subscriptions.userId, userId));
  return {
    userId,
    periodId: period.id,
    kind: 'reactivation',
    idempotencyKey: period.idempotencyKey,
    amountCents: period.amountCents,
    customerProfileId: period.gatewayCustomerId,
    paymentProfileId: period.gatewayPaymentProfileId,
    cardBrand: period.cardBrand,
    cardLast4: period.cardLast4,
  };
}
