/**
 * What a subscription change means for an account now (R10): the plan with the sign-up's rules,
 * the preview (today's prorated charge, the next bill), the receipt's quote of the charge, or why
 * the account may not change. Shared by the change itself and the undo of a pending removal.
 */
import { eq } from 'drizzle-orm';
import { nameOf, type TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { nextBillDateOf } from '@dealerpass/domain/billing/dunning';
import { prorateAnnualAddition } from '@dealerpass/domain/billing/annual';
import {
  changeAllowance,
  planSubscriptionChange,
  prorateChange,
  type ISubscriptionChangePlan,
} from '@dealerpass/domain/billing/proration';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { quote, type IQuote } from '@dealerpass/domain/prices';
import type { ISubscriptionChangePreview } from '@dealerpass/domain/schemas/subscription-change';
import { sanitizeCodes } from '@dealerpass/domain/selection';
import { SUBSCRIPTIONS_REQUIRED_MESSAGE } from '@dealerpass/domain/schemas/signup-subscriptions';
import {
  calendarDateIn,
  parseIsoDate,
  startOfDayIn,
  toIsoDate,
} from '@dealerpass/domain/time/calendar-date';
import type { Database, Transaction } from '../../../db/client.ts';
import { subscriptions, users } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import type { BillingDeps } from '../ledger/billing-deps.ts';

/** The receipt line's code for a prorated charge (R10): not a catalogue code. */
export const PRORATED_LINE_CODE = 'PRORATED';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type UserRow = typeof users.$inferSelect;

export const isoDate = (text: string) => {
  const date = parseIsoDate(text);
  if (!date) throw new Error(`not a date: ${text}`);
  return date;
};

export const notAllowed = () => new AppError(ERROR_CODES.CHANGE_NOT_ALLOWED);

/**
 * The next bill date the change's removals wait for (R10): the current period's end, or for an
 * account whose renewal is still unpaid (validating payment, or a bill date the run has not
 * reached yet) the bill date after it, since that renewal is owed for the old selection.
 */
function removalsTakeEffectOn(subscription: SubscriptionRow, now: Date, timeZone: string): string {
  // The domain's one next bill date, the one the console shows too (issue 25).
  return toIsoDate(
    nextBillDateOf(
      {
        cycleAnchor: isoDate(subscription.cycleAnchor),
        currentPeriodEnd: isoDate(subscription.currentPeriodEnd),
      },
      calendarDateIn(now, timeZone),
    ),
  );
}

export interface Evaluated {
  plan: ISubscriptionChangePlan;
  preview: ISubscriptionChangePreview;
  /** The receipt's quote of today's prorated charge. */
  charged: IQuote | null;
}

/** Everything a change means for an account now, or why it may not change (R10). */
export function evaluate(
  deps: BillingDeps,
  user: UserRow,
  subscription: SubscriptionRow,
  requested: readonly string[],
  now: Date,
): Evaluated {
  const allowance = changeAllowance(user.accountStatus, user.complimentary);
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
  const onAnnual = isAnnualPeriod(subscription);
  const proration = onAnnual
    ? annualAsMonthly(
        // R14: during a year paid by check, R10's formula on the discounted annual amounts.
        prorateAnnualAddition({
          currentCodes: current.codes,
          newCodes: plan.inForceNow.codes,
          at: now,
          timeZone: deps.timeZone,
          periodStart: subscription.currentPeriodStart,
          nextStart: subscription.currentPeriodEnd,
          table,
        }),
        quote(current.codes, now, table).totalCents,
      )
    : prorateChange({
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
  // What each addition costs in the selection it joins (R3): an extra two paid items make free is
  // listed as free, so a change that adds one is never a silent one.
  const joined = quote(plan.inForceNow.codes, now, table).lines;
  const additions = plan.added.map((code) => {
    const line = joined.find((candidate) => candidate.code === code);
    return { code, monthlyCents: line?.cents ?? 0, free: line?.free ?? false };
  });
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
    additions,
    // R10: an addition is charged at once; with no card on file there is nothing to charge.
    cardRequired: chargeTodayCents > 0 && !hasCardOnFile(subscription),
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

/**
 * Whether the account's current period is a year paid by check (R14): the run moved it to the
 * year, so the period runs from the year's start to the day after its last paid day.
 */
export function isAnnualPeriod(subscription: SubscriptionRow): boolean {
  const { annualPeriodStart, annualPeriodEnd } = subscription;
  if (!annualPeriodStart || !annualPeriodEnd) return false;
  return (
    subscription.currentPeriodStart >= annualPeriodStart &&
    subscription.currentPeriodStart <= annualPeriodEnd &&
    subscription.currentPeriodEnd > annualPeriodEnd
  );
}

function annualAsMonthly(
  annual: ReturnType<typeof prorateAnnualAddition>,
  currentMonthlyCents: number,
) {
  return {
    currentMonthlyCents,
    daysLeft: annual.daysLeft,
    daysInPeriod: annual.daysInPeriod,
    chargeCents: annual.chargeCents,
  };
}

/** The gateway's customer and payment profile a change's charge goes to (R5). */
export function hasCardOnFile(subscription: SubscriptionRow): boolean {
  return Boolean(subscription.gatewayCustomerId && subscription.gatewayPaymentProfileId);
}

export async function accountRows(db: Database | Transaction, userId: string, lock: boolean) {
  const query = db
    .select({ user: users, subscription: subscriptions })
    .from(users)
    .innerJoin(subscriptions, eq(subscriptions.userId, users.id))
    .where(eq(users.id, userId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notAllowed();
  return row;
}
