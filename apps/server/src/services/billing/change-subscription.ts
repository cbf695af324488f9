import { and, eq } from 'drizzle-orm';
import {
  planSubscriptionChange,
  type ISubscriptionChangePlan,
  type TChangeRequester,
} from '@dealerpass/domain/billing/proration';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type {
  ISubscriptionChangePreview,
  ISubscriptionChangeResult,
} from '@dealerpass/domain/schemas/subscription-change';
import { SUBSCRIPTION_CHANGE_MESSAGES } from '@dealerpass/domain/schemas/subscription-change';
import { knownCodes, sanitizeCodes } from '@dealerpass/domain/selection';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { Database, Transaction } from '../../db/client.ts';
import { billingPeriods, subscriptionChanges, subscriptions, users } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import {
  openInvoiceAfter,
  reissueOpenInvoice,
  SELECTION_CHANGED,
} from '../annual-billing/reissue-invoice.ts';
import { recordMrrState } from '../overview/record-mrr-state.ts';
import { oncePerKey } from '../request-keys/once-per-key.ts';
import { CHARGE_LEASE_MS } from './charge-lease.ts';
import type { BillingDeps, ClaimedRenewal } from './ledger/billing-deps.ts';
import { lockAccount } from './ledger/lock-account.ts';
import { recordChangePayment } from './ledger/record-change-payment.ts';
import { sendCharge } from './ledger/send-charge.ts';

import {
  accountRows,
  evaluate,
  hasCardOnFile,
  type Evaluated,
  PRORATED_LINE_CODE,
  type SubscriptionRow,
} from './changes/evaluate-change.ts';

export { PRORATED_LINE_CODE };

/** `GET /api/users/subscriptions/change`: what the requested selection would mean, changing nothing. */
export async function previewSubscriptionChange(
  deps: BillingDeps,
  userId: string,
  requested: readonly string[],
  by: TChangeRequester = 'dealer',
): Promise<ISubscriptionChangePreview> {
  const { user, subscription } = await accountRows(deps.db, userId, false);
  return withAnnualInvoice(
    deps.db,
    deps,
    userId,
    evaluate(deps, user, subscription, requested, deps.now(), by),
  );
}

/** The preview with what the change does to an open annual invoice (R14, decision 052). */
async function withAnnualInvoice(
  db: Database | Transaction,
  deps: BillingDeps,
  userId: string,
  { plan, preview }: Pick<Evaluated, 'plan' | 'preview'>,
): Promise<ISubscriptionChangePreview> {
  const annualInvoice = await openInvoiceAfter(db, deps, userId, {
    codes: plan.inForceNow.codes,
    autoExtras: plan.inForceNow.autoExtras,
    pendingRemovals: plan.removed,
    pendingRemovalsAt: plan.removed.length > 0 ? preview.nextBillDate : null,
  });
  return { ...preview, annualInvoice };
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
  await recordMrrState(tx, { userId, at: now, event: null });
}

/**
 * The new selection written, and an open annual invoice made to ask for it (R14, decision 052):
 * voided and issued again with the year's new figures, e-mailed, in this transaction.
 */
async function applyPlanAndInvoice(
  tx: Transaction,
  deps: BillingDeps,
  userId: string,
  plan: ISubscriptionChangePlan,
  removalsOn: string,
  now: Date,
  actor: 'user' | 'staff',
) {
  await applyPlan(tx, userId, plan, removalsOn, now);
  const [user] = await tx.select().from(users).where(eq(users.id, userId));
  if (!user) throw new Error('account vanished');
  await reissueOpenInvoice(tx, deps, { user, now, because: SELECTION_CHANGED, actor });
}

/**
 * How a change request started: applied at once, or a change whose charge is to be sent
 * (`send`: by this request; a repeat sends it only once the first one's lease has run out).
 */
export type Started =
  | { kind: 'applied'; result: ISubscriptionChangeResult }
  | { kind: 'charging'; changeId: string; send: boolean };

/** A change as its requester sends it: the codes, its key, and the selection it was based on. */
export interface ChangeRequest {
  codes: readonly string[];
  /** The dealer's `idempotencyKey` or the console's `requestKey` (decision 031). */
  key: string;
  basedOn: { codes: readonly string[]; pendingRemovals: readonly string[] };
}

/** The stored answer of a repeated key: a change in flight is sent again only after its lease. */
export const repeatedStart = (first: Started): Started =>
  first.kind === 'charging' ? { ...first, send: false } : first;

/**
 * `POST /api/users/subscriptions/change` (R10). Exactly once per idempotency key (`oncePerKey`,
 * decision 031): a repeat gets the first answer, the key with another selection is 409. One
 * change at a time per account: while one's charge is in flight another gets 409 (a partial
 * unique index). Additions are charged now, prorated, through the gateway with the change's own
 * key; a decline changes nothing. A change whose request stopped mid-charge is finished by the
 * next request once its lease has run out (the same key: no second charge).
 */
export async function changeSubscription(
  deps: BillingDeps,
  userId: string,
  request: {
    codes: readonly string[];
    idempotencyKey: string;
    basedOn: { codes: readonly string[]; pendingRemovals: readonly string[] };
  },
): Promise<ISubscriptionChangeResult> {
  const now = deps.now();
  const keyed = { owner: { userId }, action: 'changeSubscription', target: {}, body: request };
  const started = await oncePerKey<Started>(deps.db, keyed, {
    act: (tx) =>
      startChange(deps, tx, userId, { ...request, key: request.idempotencyKey }, now, 'dealer'),
    repeat: repeatedStart,
  });
  const settled = await settleChange(deps, started, now);
  if ('result' in settled) return settled.result;
  // The gateway did not answer: the change stays in flight and the next request finishes it.
  if (settled.change.status === 'charging') throw new AppError(ERROR_CODES.CHANGE_DECLINED);
  return answerOf(settled.change);
}

/**
 * A started change brought to its end: applied at once, or its charge sent (by the request that
 * started it, or by a repeat once the first one's lease has run out) and settled. A change whose
 * charge got no answer comes back still `charging`; one another request is charging is 409.
 * The dealer's change and the console's adjustment both end here (R10, issue 28).
 */
export async function settleChange(
  deps: BillingDeps,
  started: Started,
  now: Date,
): Promise<{ result: ISubscriptionChangeResult } | { change: ChangeRow }> {
  if (started.kind === 'applied') return { result: started.result };
  const [change] = await deps.db
    .select()
    .from(subscriptionChanges)
    .where(eq(subscriptionChanges.id, started.changeId));
  if (!change) throw new Error('change vanished');
  if (change.status !== 'charging') return { change };
  if (!started.send && change.createdAt.getTime() + CHARGE_LEASE_MS > now.getTime()) {
    throw new AppError(ERROR_CODES.CHANGE_IN_PROGRESS);
  }
  return { change: await finishChange(deps, change) };
}

/**
 * A change's first step, in the transaction that records its key: the account locked; another
 * request's change in flight refused (or finished, once its lease has run out); then the plan
 * applied at once when nothing is charged, or the change and its charge's period written.
 */
export async function startChange(
  deps: BillingDeps,
  tx: Transaction,
  userId: string,
  request: ChangeRequest,
  now: Date,
  by: TChangeRequester,
): Promise<Started> {
  // The account first, then its subscription (docs/decisions/028).
  await lockAccount(tx, userId);
  const { user, subscription } = await accountRows(tx, userId, true);
  const [charging] = await tx
    .select()
    .from(subscriptionChanges)
    .where(and(eq(subscriptionChanges.userId, userId), eq(subscriptionChanges.status, 'charging')))
    .limit(1);
  if (charging) {
    if (charging.createdAt.getTime() + CHARGE_LEASE_MS > now.getTime()) {
      throw new AppError(ERROR_CODES.CHANGE_IN_PROGRESS);
    }
    return { kind: 'charging', changeId: charging.id, send: true };
  }
  // Under the account's lock: the selection the page was based on must still be the one in
  // force, or the change would undo what another window did meanwhile (R10, decision 035).
  if (!sameSelection(subscription, request.basedOn)) {
    throw new AppError(ERROR_CODES.CHANGE_SELECTION_STALE);
  }
  const evaluated = evaluate(deps, user, subscription, request.codes, now, by);
  const { plan, charged } = evaluated;
  const preview = await withAnnualInvoice(tx, deps, userId, evaluated);
  if (plan.added.length === 0 && sameList(plan.removed, knownCodes(subscription.pendingRemovals))) {
    throw new AppError(ERROR_CODES.VALIDATION_FAILED, {
      message: SUBSCRIPTION_CHANGE_MESSAGES.noChange,
      errors: [{ source: 'codes', message: SUBSCRIPTION_CHANGE_MESSAGES.noChange }],
    });
  }
  const changeId = crypto.randomUUID();
  if (!charged) {
    await applyPlanAndInvoice(
      tx,
      deps,
      userId,
      plan,
      preview.nextBillDate,
      now,
      by === 'staff' ? 'staff' : 'user',
    );
    const result: ISubscriptionChangeResult = { ...preview, changeId, paymentId: null };
    await tx.insert(subscriptionChanges).values({
      id: changeId,
      userId,
      idempotencyKey: request.key,
      status: 'applied',
      codesBefore: subscription.codes,
      codesRequested: [...plan.fromNextBill.codes],
      amountCents: 0,
      result,
      createdAt: now,
      settledAt: now,
    });
    return { kind: 'applied', result };
  }
  if (!hasCardOnFile(subscription)) throw new AppError(ERROR_CODES.CHANGE_CARD_REQUIRED);
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
      idempotencyKey: request.key,
      status: 'charging',
      codesBefore: subscription.codes,
      codesRequested: [...plan.fromNextBill.codes],
      amountCents: charged.totalCents,
      billingPeriodId: period!.id,
      result: { ...preview, changeId, paymentId: null },
      // The application's clock: the charge's lease is counted from it against `now`.
      createdAt: now,
    })
    .returning();
  return { kind: 'charging', changeId: change!.id, send: true };
}

function sameList(a: readonly string[], b: readonly string[]) {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function sameSet(a: readonly string[], b: readonly string[]) {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((value) => right.has(value));
}

/** The page's selection (codes in force, pending removals) is the account's, in any order. */
function sameSelection(
  subscription: SubscriptionRow,
  basedOn: { codes: readonly string[]; pendingRemovals: readonly string[] },
) {
  return (
    sameSet(sanitizeCodes(subscription.codes), basedOn.codes) &&
    sameSet(knownCodes(subscription.pendingRemovals), basedOn.pendingRemovals)
  );
}

export type ChangeRow = typeof subscriptionChanges.$inferSelect;

/** The stored answer of a settled change: its result, or the decline it met. */
function answerOf(change: ChangeRow): ISubscriptionChangeResult {
  if (change.status === 'declined') throw new AppError(ERROR_CODES.CHANGE_DECLINED);
  return resultOf(change);
}

/** A change's result as it was answered (a settled change's with its payment). */
export function resultOf(change: ChangeRow): ISubscriptionChangeResult {
  // A change stored before the preview listed its additions answers without them.
  const stored = change.result as ISubscriptionChangeResult;
  return {
    ...stored,
    additions: stored.additions ?? [],
    cardRequired: stored.cardRequired ?? false,
    annualInvoice: stored.annualInvoice ?? null,
  };
}

/**
 * Sends a change's prorated charge (again, after a crash: the same key and card) and settles it:
 * approved, the payment is recorded and the selection changes, in one transaction; declined, the
 * period is marked failed and nothing else changes (R10); unanswered, the change is returned as it
 * is, still charging.
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
  // No answer from the gateway: still in flight, sent again under the same key later.
  if (outcome.status === 'retry') return change;
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    await lockAccount(tx, change.userId);
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
    await applyPlanAndInvoice(tx, deps, change.userId, plan, stored.nextBillDate, now, 'user');
    const [applied] = await tx
      .update(subscriptionChanges)
      .set({ status: 'applied', settledAt: now, result: { ...stored, paymentId } })
      .where(eq(subscriptionChanges.id, change.id))
      .returning();
    return applied!;
  });
}
