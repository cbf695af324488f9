/** The removals a change left waiting for their bill date (R10): shown, and undone one at a time. */
import { eq } from 'drizzle-orm';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { changeAllowance } from '@dealerpass/domain/billing/proration';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type {
  ISubscriptionChangePreview,
  ISubscriptionSelectionState,
} from '@dealerpass/domain/schemas/subscription-change';
import { SUBSCRIPTION_CHANGE_MESSAGES } from '@dealerpass/domain/schemas/subscription-change';
import { knownCodes, sanitizeCodes } from '@dealerpass/domain/selection';
import type { Database } from '../../../db/client.ts';
import { subscriptions } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import type { BillingDeps } from '../ledger/billing-deps.ts';
import { reissueOpenInvoice, SELECTION_CHANGED } from '../../annual-billing/reissue-invoice.ts';
import { lockAccount } from '../ledger/lock-account.ts';
import { accountRows, evaluate, notAllowed } from './evaluate-change.ts';

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
    await lockAccount(tx, userId);
    const { user, subscription } = await accountRows(tx, userId, true);
    if (changeAllowance(user.accountStatus, user.complimentary) === 'none') throw notAllowed();
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
    // The code stays from the next bill: an open annual invoice asks for it too (decision 052).
    await reissueOpenInvoice(tx, deps, { user, now, because: SELECTION_CHANGED, actor: 'user' });
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
