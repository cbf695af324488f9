import { eq } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import {
  ADJUST_SUBSCRIPTION_MESSAGES,
  type TAdjustSubscriptionOutcome,
  type TAdjustSubscriptionPreview,
  type TAdjustSubscriptionResult,
} from '@dealerpass/domain/admin/account-actions';
import type { ISubscriptionChangeResult } from '@dealerpass/domain/schemas/subscription-change';
import type { Transaction } from '../../../db/client.ts';
import { subscriptionChanges, subscriptions, users } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import {
  previewSubscriptionChange,
  repeatedStart,
  resultOf,
  settleChange,
  startChange,
  type Started,
} from '../../billing/change-subscription.ts';
import type { BillingDeps } from '../../billing/ledger/billing-deps.ts';
import { oncePerKey } from '../../request-keys/once-per-key.ts';
import { writeStaffAudit } from '../audit/staff-audit.ts';
import {
  accountState,
  lockUser,
  staffRequest,
  type StaffActionInput,
} from './take-staff-action.ts';

/** What the adjustment's key keeps: how the change started, and its audit row. */
interface Stored {
  started: Started;
  auditId: number;
}

/**
 * The console's preview of a change on the dealer's behalf (issue 28's "Adjust"): the dealer's own
 * preview (R10, `evaluate`), for a complimentary account with nothing charged.
 */
export async function previewAdjustment(
  deps: BillingDeps,
  userId: string,
  codes: readonly string[],
): Promise<TAdjustSubscriptionPreview> {
  const [user] = await deps.db
    .select({ complimentary: users.complimentary })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new AppError(ERROR_CODES.NOT_FOUND);
  try {
    const preview = await previewSubscriptionChange(deps, userId, codes, 'staff');
    return { ...preview, complimentary: user.complimentary };
  } catch (error) {
    throw inStaffWords(error);
  }
}

/**
 * Changes a dealer's selection on their behalf (issue 28, R10, R12): the dealer's change itself
 * (`startChange`, `settleChange`: the basis check, one change at a time, the prorated charge to the
 * card on file with its receipt e-mailed, removals at the next bill date), keyed once per request
 * key by the member (`oncePerKey`), with the audit row written in the transaction that starts
 * it. A complimentary account is charged nothing. The answer says what happened: applied with
 * nothing to charge, charged, declined (nothing changed), or pending (no answer from the gateway;
 * the same request again finishes it).
 */
export async function adjustSubscription(
  deps: BillingDeps,
  input: Omit<StaffActionInput, 'action'> & {
    codes: readonly string[];
    basedOn: { codes: readonly string[]; pendingRemovals: readonly string[] };
  },
): Promise<TAdjustSubscriptionResult> {
  const { userId, now } = input;
  let repeated = false;
  try {
    const stored = await oncePerKey<Stored>(
      deps.db,
      staffRequest({ ...input, action: 'adjustSubscription' }),
      {
        act: async (tx) => {
          // The account first, then its subscription (docs/decisions/028).
          const user = await lockUser(tx, userId);
          const before = await accountState(tx, user);
          const [selection] = await tx
            .select({ codes: subscriptions.codes, pendingRemovals: subscriptions.pendingRemovals })
            .from(subscriptions)
            .where(eq(subscriptions.userId, userId));
          const started = await startChange(
            deps,
            tx,
            userId,
            { codes: input.codes, key: input.requestKey, basedOn: input.basedOn },
            now,
            'staff',
          );
          const planned = await plannedResult(tx, started);
          const audit = await writeStaffAudit(tx, {
            actor: input.actor,
            action: 'adjustSubscription',
            userId,
            before: { ...before, ...selection },
            after: {
              changeId: planned.changeId,
              added: planned.added,
              removed: planned.removed,
              codes: input.codes,
              chargeTodayCents: planned.chargeTodayCents,
              nextBillDate: planned.nextBillDate,
            },
            reason: input.reason,
            requestKey: input.requestKey,
            at: now,
          });
          return { started, auditId: audit.id };
        },
        repeat: (first) => {
          repeated = true;
          return { ...first, started: repeatedStart(first.started) };
        },
      },
    );
    const settled = await settleChange(deps, stored.started, now);
    const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
    if (!user) throw new AppError(ERROR_CODES.NOT_FOUND);
    const answer = {
      auditId: stored.auditId,
      repeated,
      account: await accountState(deps.db, user),
    };
    if ('result' in settled) {
      return { ...answer, outcome: 'applied', change: settled.result, declineReason: null };
    }
    const { change } = settled;
    const outcome: TAdjustSubscriptionOutcome =
      change.status === 'declined'
        ? 'declined'
        : change.status === 'charging'
          ? 'pending'
          : 'charged';
    return {
      ...answer,
      outcome,
      change: resultOf(change),
      declineReason: outcome === 'declined' ? (change.declineReason ?? 'declined') : null,
    };
  } catch (error) {
    throw inStaffWords(error);
  }
}

/** The change's preview as it started: its result at once, or its charging row's. */
async function plannedResult(
  tx: Transaction,
  started: Started,
): Promise<ISubscriptionChangeResult> {
  if (started.kind === 'applied') return started.result;
  const [change] = await tx
    .select()
    .from(subscriptionChanges)
    .where(eq(subscriptionChanges.id, started.changeId));
  if (!change) throw new Error('change vanished');
  return resultOf(change);
}

/**
 * The dealer's refusals in the console's words: the same codes and statuses, but a status that
 * allows no change is the console's 409 ACTION_NOT_ALLOWED, as for every other account action.
 */
function inStaffWords(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  switch (error.code) {
    case ERROR_CODES.CHANGE_NOT_ALLOWED:
      return new AppError(ERROR_CODES.ACTION_NOT_ALLOWED, {
        message: ADJUST_SUBSCRIPTION_MESSAGES.notAllowed,
      });
    case ERROR_CODES.CHANGE_SELECTION_STALE:
      return new AppError(error.code, { message: ADJUST_SUBSCRIPTION_MESSAGES.stale });
    case ERROR_CODES.CHANGE_CARD_REQUIRED:
      return new AppError(error.code, { message: ADJUST_SUBSCRIPTION_MESSAGES.cardRequired });
    case ERROR_CODES.CHANGE_IN_PROGRESS:
      return new AppError(error.code, { message: ADJUST_SUBSCRIPTION_MESSAGES.inProgress });
    default:
      return error;
  }
}
