import { and, eq, sql } from 'drizzle-orm';
import { nameOf, type TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { COMPLIMENTARY_DETAIL } from '@dealerpass/domain/account/status';
import { nextBillDate } from '@dealerpass/domain/billing/renewal-calendar';
import {
  changeAllowance,
  planSubscriptionChange,
  prorateChange,
  type ISubscriptionChangePlan,
} from '@dealerpass/domain/billing/proration';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { quote, type IQuote } from '@dealerpass/domain/prices';
import type {
  ISubscriptionChangePreview,
  ISubscriptionChangeResult,
  ISubscriptionSelectionState,
} from '@dealerpass/domain/schemas/subscription-change';
import { SUBSCRIPTION_CHANGE_MESSAGES } from '@dealerpass/domain/schemas/subscription-change';
import { knownCodes, sanitizeCodes } from '@dealerpass/domain/selection';
import { SUBSCRIPTIONS_REQUIRED_MESSAGE } from '@dealerpass/domain/schemas/signup-subscriptions';
import {
  calendarDateIn,
  compareDates,
  parseIsoDate,
  startOfDayIn,
  toIsoDate,
} from '@dealerpass/domain/time/calendar-date';
import type { Database, Transaction } from '../../db/client.ts';
import { billingPeriods, subscriptionChanges, subscriptions, users } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { CHARGE_LEASE_MS } from './charge-lease.ts';
import type { BillingDeps, ClaimedRenewal } from './ledger/billing-deps.ts';
import { recordChangePayment } from './ledger/record-change-payment.ts';
import { sendCharge } from './ledger/send-charge.ts';

/** The receipt line's code for a prorated charge (R10): not a catalogue code. */
export const PRORATED_LINE_CODE = 'PRORATED';

type SubscriptionRow = typeof subscriptions.$inferSelect;
type UserRow = typeof users.$inferSelect;

const isoDate = (text: string) => {
  const date = parseIsoDate(text);
  if (!date) throw new Error(`not a date: ${text}`);
  return date;
};

const notAllowed = () => new AppError(ERROR_CODES.CHANGE_NOT_ALLOWED);

/**
 * The next bill date the change's removals wait for (R10): the current period's end, or for an
 * account whose renewal is still unpaid (validating payment, or a bill date the run has not
 * reached yet) the bill date after it, since that renewal is owed for the old selection.
 */
function removalsTakeEffectOn(subscription: SubscriptionRow, now: Date, timeZone: string): string {
  const end = isoDate(subscription.currentPeriodEnd);
  const today = calendarDateIn(now, timeZone);
  if (compareDates(end, today) > 0) return subscription.currentPeriodEnd;
  return toIsoDate(nextBillDate(isoDate(subscription.cycleAnchor), end));
}

interface Evaluated {
  plan: ISubscriptionChangePlan;
  preview: ISubscriptionChangePreview;
  /** The receipt's quote of today's prorated charge. */
  charged: IQuote | null;
}

/** Everything a change means for an account now, or why it may not change (R10). */
function evaluate(
  deps: BillingDeps,
  user: UserRow,
  subscription: SubscriptionRow,
  requested: readonly string[],
  now: Date,
): Evaluated {
  const complimentary =
    (user.accountStatusDetails ?? '').trim().toLowerCase() === COMPLIMENTARY_DETAIL;
  const allowance = changeAllowance(user.accountStatus, complimentary);
  if (allowance === 'none') throw notAllowed();
  const current = {
    codes: sanitizeCodes(subscription.codes),
    autoExtras: sanitizeCodes(subscription.autoExtras),
  };
  const plan = planSubscriptionChange(current, requested);
  // The route's schema asks for one at least; the service holds to it for every caller: an
  // account stops every subscription by cancelling, and a bill never charges nothing.
  if (plan.fromNextBill.codes.length === 0) {
    throw new AppError(ERROR_CODES.VALIDATION_FAILED, {
      message: SUBSCRIPTIONS_REQUIRED_MESSAGE,
      errors: [{ source: 'codes', message: SUBSCRIPTIONS_REQUIRED_MESSAGE }],
    });
  }
  if (allowance === 'removalsOnly' && plan.added.length > 0) throw notAllowed();
  const table = deps.prices.table();
  const nextCycle = removalsTakeEffectOn(subscription, now, deps.timeZone);
  // A period the run has not renewed yet is over: nothing of it is left to prorate.
  const periodOver = nextCycle !== subscription.currentPeriodEnd;
  // Removals already waiting for a bill date the run has not reached yet keep it: a later change
  // (an addition the day the period ends, before the run) does not postpone them (R10). The
  // pending removals share one date, so the ones this change adds take that date too.
  const waiting = subscription.pendingRemovalsAt;
  const keepsWaiting =
    waiting !== null &&
    waiting < nextCycle &&
    plan.removed.some((code) => subscription.pendingRemovals.includes(code));
  const removalsOn = keepsWaiting ? waiting : nextCycle;
  const proration = prorateChange({
    currentCodes: current.codes,
    newCodes: plan.inForceNow.codes,
    at: now,
    timeZone: deps.timeZone,
    periodStart: subscription.currentPeriodStart,
    periodEnd: subscription.currentPeriodEnd,
    table,
  });
  const chargeTodayCents = periodOver ? 0 : proration.chargeCents;
  // R10: the next bill charges the selection in force that day at that day's prices.
  const billAt = startOfDayIn(isoDate(removalsOn), deps.timeZone);
  const preview: ISubscriptionChangePreview = {
    currentCodes: current.codes,
    added: plan.added,
    removed: plan.removed,
    pendingRemovals: plan.removed,
    chargeTodayCents,
    daysLeft: periodOver ? 0 : proration.daysLeft,
    daysInPeriod: proration.daysInPeriod,
    currentMonthlyCents: proration.currentMonthlyCents,
    nextBillCents: quote(plan.fromNextBill.codes, billAt, table).totalCents,
    nextBillDate: removalsOn,
    allowance,
  };
  const charged: IQuote | null =
    chargeTodayCents > 0
      ? {
          lines: [
            {
              code: PRORATED_LINE_CODE as TSubscriptionCode,
              name: `Prorated: ${plan.added.map(nameOf).join(', ')} (${preview.daysLeft} of ${preview.daysInPeriod} days)`,
              cents: chargeTodayCents,
              listCents: chargeTodayCents,
              free: false,
            },
          ],
          subtotalCents: chargeTodayCents,
          platformFeeCents: 0,
          totalCents: chargeTodayCents,
        }
      : null;
  return { plan, preview, charged };
}

async function accountRows(db: Database | Transaction, userId: string, lock: boolean) {
  const query = db
    .select({ user: users, subscription: subscriptions })
    .from(users)
    .innerJoin(subscriptions, eq(subscriptions.userId, users.id))
    .where(eq(users.id, userId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notAllowed();
  return row;
}

/** `GET /api/users/subscriptions/change`: what the requested selection would mean, changing nothing. */
export async function previewSubscriptionChange(
  deps: BillingDeps,
  userId: string,
  requested: readonly string[],
): Promise<ISubscriptionChangePreview> {
  const { user, subscription } = await accountRows(deps.db, userId, false);
  return evaluate(deps, user, subscription, requested, deps.now()).preview;
}

/** Writes the new selection: additions in force now, removals pending until their bill date. */
async function applyPlan(
  tx: Transaction,
  userId: string,
  plan: ISubscriptionChangePlan,
  removalsOn: string,
  now: Date,
) {
  await tx
    .update(subscriptions)
    .set({
      codes: [...plan.inForceNow.codes],
      autoExtras: [...plan.inForceNow.autoExtras],
      pendingRemovals: plan.removed,
      pendingRemovalsAt: plan.removed.length > 0 ? removalsOn : null,
      updatedAt: now,
    })
    .where(eq(subscriptions.userId, userId));
  await tx
    .update(users)
    .set({ subscriptions: [...plan.inForceNow.codes], updatedAt: now })
    .where(eq(users.id, userId));
}

/**
 * `POST /api/users/subscriptions/change` (R10). Exactly once per idempotency key: a repeat gets
 * the first answer. One change at a time per account: while one's charge is in flight another
 * gets 409 (a partial unique index). Additions are charged now, prorated, through the gateway
 * with the change's own key; a decline changes nothing. A change whose request stopped mid-charge
 * is finished by the next request once its lease has run out (the same key: no second charge).
 */
export async function changeSubscription(
  deps: BillingDeps,
  userId: string,
  request: { codes: readonly string[]; idempotencyKey: string },
): Promise<ISubscriptionChangeResult> {
  const now = deps.now();
  const started = await deps.db.transaction(async (tx) => {
    const { user, subscription } = await accountRows(tx, userId, true);
    const [earlier] = await tx
      .select()
      .from(subscriptionChanges)
      .where(
        and(
          eq(subscriptionChanges.userId, userId),
          sql`(${subscriptionChanges.idempotencyKey} = ${request.idempotencyKey} or ${subscriptionChanges.status} = 'charging')`,
        ),
      )
      .orderBy(sql`${subscriptionChanges.idempotencyKey} = ${request.idempotencyKey} desc`)
      .limit(1);
    if (earlier) {
      if (earlier.status !== 'charging') return { kind: 'done', change: earlier } as const;
      if (earlier.createdAt.getTime() + CHARGE_LEASE_MS > now.getTime()) {
        throw new AppError(ERROR_CODES.CHANGE_IN_PROGRESS);
      }
      return { kind: 'resume', change: earlier } as const;
    }
    const { plan, preview, charged } = evaluate(deps, user, subscription, request.codes, now);
    if (
      plan.added.length === 0 &&
      sameList(plan.removed, knownCodes(subscription.pendingRemovals))
    ) {
      throw new AppError(ERROR_CODES.VALIDATION_FAILED, {
        message: SUBSCRIPTION_CHANGE_MESSAGES.noChange,
        errors: [{ source: 'codes', message: SUBSCRIPTION_CHANGE_MESSAGES.noChange }],
      });
    }
    const changeId = crypto.randomUUID();
    if (!charged) {
      await applyPlan(tx, userId, plan, preview.nextBillDate, now);
      const result: ISubscriptionChangeResult = { ...preview, changeId, paymentId: null };
      await tx.insert(subscriptionChanges).values({
        id: changeId,
        userId,
        idempotencyKey: request.idempotencyKey,
        status: 'applied',
        codesBefore: subscription.codes,
        codesRequested: [...plan.fromNextBill.codes],
        amountCents: 0,
        result,
        settledAt: now,
      });
      return { kind: 'applied', result } as const;
    }
    if (!subscription.gatewayCustomerId || !subscription.gatewayPaymentProfileId) {
      throw new AppError(ERROR_CODES.CHANGE_DECLINED);
    }
    const today = toIsoDate(calendarDateIn(now, deps.timeZone));
    const [period] = await tx
      .insert(billingPeriods)
      .values({
        userId,
        kind: 'change',
        periodStart: today,
        periodEnd: subscription.currentPeriodEnd,
        amountCents: charged.totalCents,
        quote: charged,
        idempotencyKey: `change:${changeId}`,
        gatewayCustomerId: subscription.gatewayCustomerId,
        gatewayPaymentProfileId: subscription.gatewayPaymentProfileId,
        cardBrand: user.cardBrand,
        cardLast4: user.cardLast4,
      })
      .returning();
    const [change] = await tx
      .insert(subscriptionChanges)
      .values({
        id: changeId,
        userId,
        idempotencyKey: request.idempotencyKey,
        status: 'charging',
        codesBefore: subscription.codes,
        codesRequested: [...plan.fromNextBill.codes],
        amountCents: charged.totalCents,
        billingPeriodId: period!.id,
        result: { ...preview, changeId, paymentId: null },
      })
      .returning();
    return { kind: 'resume', change: change! } as const;
  });
  if (started.kind === 'applied') return started.result;
  if (started.kind === 'done') return answerOf(started.change);
  return answerOf(await finishChange(deps, started.change));
}

function sameList(a: readonly string[], b: readonly string[]) {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

type ChangeRow = typeof subscriptionChanges.$inferSelect;

/** The stored answer of a settled change: its result, or the decline it met. */
function answerOf(change: ChangeRow): ISubscriptionChangeResult {
  if (change.status === 'declined') throw new AppError(ERROR_CODES.CHANGE_DECLINED);
  return change.result as ISubscriptionChangeResult;
}

/**
 * Sends a change's prorated charge (again, after a crash: the same key and card) and settles it:
 * approved, the payment is recorded and the selection changes, in one transaction; declined, the
 * period is marked failed and nothing else changes (R10).
 */
async function finishChange(deps: BillingDeps, change: ChangeRow): Promise<ChangeRow> {
  const [period] = await deps.db
    .select()
    .from(billingPeriods)
    .where(eq(billingPeriods.id, change.billingPeriodId!));
  if (!period) throw new Error('change period vanished');
  const claimed: ClaimedRenewal = {
    userId: change.userId,
    periodId: period.id,
    kind: 'change',
    idempotencyKey: period.idempotencyKey,
    amountCents: period.amountCents,
    customerProfileId: period.gatewayCustomerId!,
    paymentProfileId: period.gatewayPaymentProfileId!,
    cardBrand: period.cardBrand,
    cardLast4: period.cardLast4,
  };
  const outcome = await sendCharge(deps, claimed);
  if (outcome.status === 'retry') throw new AppError(ERROR_CODES.CHANGE_DECLINED);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(subscriptionChanges)
      .where(eq(subscriptionChanges.id, change.id))
      .for('update');
    if (!current || current.status !== 'charging') return current!;
    if (outcome.status === 'declined') {
      await tx
        .update(billingPeriods)
        .set({ status: 'failed', settledAt: now })
        .where(eq(billingPeriods.id, period.id));
      const [declined] = await tx
        .update(subscriptionChanges)
        .set({ status: 'declined', declineReason: outcome.reason, settledAt: now })
        .where(eq(subscriptionChanges.id, change.id))
        .returning();
      return declined!;
    }
    const paymentId = await recordChangePayment(tx, deps, claimed, outcome.transactionId, now);
    // The selection as it is now (locked), with the change's plan made again from it.
    const { subscription } = await accountRows(tx, change.userId, true);
    const plan = planSubscriptionChange(
      {
        codes: sanitizeCodes(subscription.codes),
        autoExtras: sanitizeCodes(subscription.autoExtras),
      },
      change.codesRequested,
    );
    const stored = change.result as ISubscriptionChangeResult;
    await applyPlan(tx, change.userId, plan, stored.nextBillDate, now);
    const [applied] = await tx
      .update(subscriptionChanges)
      .set({ status: 'applied', settledAt: now, result: { ...stored, paymentId } })
      .where(eq(subscriptionChanges.id, change.id))
      .returning();
    return applied!;
  });
}

/**
 * Undoes a pending removal (R10): the code keeps running after its bill date. A simulcast whose
 * base is still leaving cannot stay without it; undoing a base keeps only the base.
 */
export async function undoPendingRemoval(
  deps: BillingDeps,
  userId: string,
  code: TSubscriptionCode,
): Promise<ISubscriptionChangePreview> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const { user, subscription } = await accountRows(tx, userId, true);
    const complimentary =
      (user.accountStatusDetails ?? '').trim().toLowerCase() === COMPLIMENTARY_DETAIL;
    if (changeAllowance(user.accountStatus, complimentary) === 'none') throw notAllowed();
    if (!subscription.pendingRemovals.includes(code)) {
      throw new AppError(ERROR_CODES.VALIDATION_FAILED, {
        message: SUBSCRIPTION_CHANGE_MESSAGES.codeInvalid,
        errors: [{ source: 'code', message: SUBSCRIPTION_CHANGE_MESSAGES.codeInvalid }],
      });
    }
    let remaining = subscription.pendingRemovals.filter((pending) => pending !== code);
    // A simulcast cannot outlive its base: undoing one whose base still leaves undoes the base too.
    if (code.endsWith('_S')) remaining = remaining.filter((pending) => `${pending}_S` !== code);
    await tx
      .update(subscriptions)
      .set({
        pendingRemovals: remaining,
        pendingRemovalsAt: remaining.length > 0 ? subscription.pendingRemovalsAt : null,
        updatedAt: now,
      })
      .where(eq(subscriptions.userId, userId));
    const refreshed = await accountRows(tx, userId, false);
    const requested = refreshed.subscription.codes.filter((held) => !remaining.includes(held));
    return evaluate(deps, refreshed.user, refreshed.subscription, requested, now).preview;
  });
}

/**
 * The selection as the change page starts from it and the pending removals the Subscriptions
 * page shows (R10), with the bill date they wait for.
 */
export async function getPendingRemovals(
  db: Database,
  userId: string,
): Promise<ISubscriptionSelectionState> {
  const [row] = await db
    .select({
      codes: subscriptions.codes,
      autoExtras: subscriptions.autoExtras,
      pending: subscriptions.pendingRemovals,
      at: subscriptions.pendingRemovalsAt,
    })
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId));
  const pending = knownCodes(row?.pending ?? []);
  const codes = sanitizeCodes(row?.codes ?? []);
  return {
    codes: pending,
    takeEffectOn: pending.length > 0 ? (row?.at ?? null) : null,
    current: {
      codes,
      autoExtras: sanitizeCodes(row?.autoExtras ?? []).filter((code) => codes.includes(code)),
    },
  };
}
