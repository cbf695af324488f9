import { eq } from 'drizzle-orm';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { applyPendingRemovals as removeCodes } from '@dealerpass/domain/billing/proration';
import type { Transaction } from '../../../db/client.ts';
import { subscriptions, users } from '../../../db/schema.ts';
import { recordMrrState } from '../../overview/record-mrr-state.ts';

/** What the claim reads of a due account's selection. */
export interface DueSelection {
  userId: string;
  codes: string[];
  autoExtras: string[];
  pendingRemovals: string[];
  pendingRemovalsAt: string | null;
  /** The period about to be billed: its first day is the bill date reached. */
  periodStart: string;
}

/**
 * R10: removals take effect at the bill date they wait for. Before a due account is billed,
 * the ones whose date has come leave its selection (a base with its simulcast, and the automatic
 * extras when fewer than two paid items remain), so the bill charges the selection in force that
 * day. Changes `codes` of the accounts given; one update per account that has any.
 */
export async function applyDueRemovals(
  tx: Transaction,
  accounts: readonly DueSelection[],
  now: Date,
): Promise<void> {
  for (const account of accounts) {
    if (account.pendingRemovals.length === 0) continue;
    if (account.pendingRemovalsAt !== null && account.pendingRemovalsAt > account.periodStart) {
      continue;
    }
    const next = removeCodes(
      {
        codes: account.codes as TSubscriptionCode[],
        autoExtras: account.autoExtras as TSubscriptionCode[],
      },
      account.pendingRemovals,
    );
    await tx
      .update(subscriptions)
      .set({
        codes: [...next.codes],
        autoExtras: [...next.autoExtras],
        pendingRemovals: [],
        pendingRemovalsAt: null,
        updatedAt: now,
      })
      .where(eq(subscriptions.userId, account.userId));
    await tx
      .update(users)
      .set({ subscriptions: [...next.codes], updatedAt: now })
      .where(eq(users.id, account.userId));
    await recordMrrState(tx, { userId: account.userId, at: now, event: null });
    account.codes = [...next.codes];
    account.autoExtras = [...next.autoExtras];
    account.pendingRemovals = [];
  }
}
