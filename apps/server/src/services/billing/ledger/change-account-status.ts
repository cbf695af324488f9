import { isAccountStatus, STATUS_DESCRIPTIONS } from '@dealerpass/domain/account/status';
import {
  nextAccountStatus,
  type TAccountEvent,
} from '@dealerpass/domain/account/status-transitions';
import type { TAccountStatus } from '@dealerpass/domain/account/status';
import { and, eq } from 'drizzle-orm';
import type { Transaction } from '../../../db/client.ts';
import { accountEvents, users } from '../../../db/schema.ts';
import { recordMrrState } from '../../overview/record-mrr-state.ts';

/** A status change the domain's state machine does not allow: a bug, never a user's mistake. */
export class AccountTransitionRefused extends Error {
  constructor(from: string, event: TAccountEvent) {
    super(`account status ${JSON.stringify(from)} cannot take the event ${event}`);
    this.name = 'AccountTransitionRefused';
  }
}

/** The status is no longer the one the caller read: another transaction changed it first. */
export class AccountStatusChanged extends Error {
  constructor(userId: string, from: string) {
    super(`account ${userId} is no longer ${JSON.stringify(from)}`);
    this.name = 'AccountStatusChanged';
  }
}

/**
 * Every status change goes through here (issue 15): the domain names the next status for the
 * event, an impossible one throws before anything is written, and the change is written with
 * its audit record (issue 5). `note` is the audit record's event text.
 */
export async function changeAccountStatus(
  tx: Transaction,
  change: {
    userId: string;
    /** The status the caller read (and locked) before deciding on the event. */
    from: string;
    event: TAccountEvent;
    note: string;
    actor: string;
    now: Date;
    /** More for the audit record: a staff action names the member (R12, decision 026). */
    details?: Record<string, unknown>;
  },
): Promise<TAccountStatus> {
  const { userId, from, event, note, actor, now } = change;
  const to = isAccountStatus(from) ? nextAccountStatus(from, event) : null;
  if (to === null) throw new AccountTransitionRefused(from, event);
  // Only from the status the caller read: a change made meanwhile by another transaction
  // (another run's batch) must not be applied, nor recorded, a second time.
  const changed = await tx
    .update(users)
    .set({ accountStatus: to, updatedAt: now })
    .where(and(eq(users.id, userId), eq(users.accountStatus, from)))
    .returning({ id: users.id });
  if (changed.length === 0) throw new AccountStatusChanged(userId, from);
  await tx.insert(accountEvents).values({
    userId,
    event: note,
    fromStatus: from,
    toStatus: to,
    actor,
    at: now,
    details: { ...change.details, description: STATUS_DESCRIPTIONS[to] },
  });
  // R18's history: MRR and the movements at past dates read what was true then (decision 042).
  await recordMrrState(tx, { userId, at: now, event, fromStatus: from });
  return to;
}
