import { eq } from 'drizzle-orm';
import { COMPLIMENTARY_DETAIL, normalizeStatus } from '@dealerpass/domain/account/status';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { TStaffAction } from '@dealerpass/domain/staff/roles';
import type {
  TStaffAccountState,
  TStaffActionResult,
} from '@dealerpass/domain/staff/account-actions';
import type { Database, Transaction } from '../../db/client.ts';
import { refunds, users } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { findUniqueViolation } from '../../errors/unique-violation.ts';
import { getBalanceCents } from '../billing/account-balance.ts';
import { lockAccount } from '../billing/ledger/lock-account.ts';
import {
  findStaffAction,
  writeStaffAudit,
  type StaffActor,
  type StaffAuditRow,
} from './staff-audit.ts';

export type LockedUser = typeof users.$inferSelect;

/** What an action's audit row records before and after (R12), beyond the account's state. */
export type AuditFacts = Record<string, unknown>;

export interface StaffActionInput {
  actor: StaffActor;
  userId: string;
  action: TStaffAction;
  requestKey: string;
  reason: string | null;
  now: Date;
}

/** The account's status, complimentary flag and balance, as an audit row and an answer show it. */
export async function accountState(
  db: Database | Transaction,
  user: Pick<LockedUser, 'id' | 'accountStatus' | 'accountStatusDetails'>,
): Promise<TStaffAccountState> {
  return {
    userId: user.id,
    accountStatus: user.accountStatus,
    complimentary: normalizeStatus(user.accountStatusDetails) === COMPLIMENTARY_DETAIL,
    balanceCents: await getBalanceCents(db, user.id),
  };
}

/** What a staff action writes on an account event: who did it (R12, decision 026). */
export const staffEventDetails = (actor: StaffActor) => ({
  staffId: actor.staffId,
  staffEmail: actor.email,
});

/**
 * Runs one staff action on one account exactly once per request key (R12, decision 026): the
 * account's row is locked, a key already acted on answers the first result and does nothing
 * again, and otherwise `act` makes the change and the audit row is written in its transaction,
 * with the account's state before and after. `act` throws an AppError to refuse (nothing is
 * written then).
 */
export async function takeStaffAction(
  db: Database,
  input: StaffActionInput,
  act: (
    tx: Transaction,
    user: LockedUser,
  ) => Promise<{ before?: AuditFacts; after?: AuditFacts } | void>,
): Promise<TStaffActionResult> {
  const earlier = await findStaffAction(db, input.requestKey);
  if (earlier) return repeatOf(db, earlier, input);
  try {
    return await db.transaction(async (tx) => {
      const user = await lockUser(tx, input.userId);
      // Read again under the lock: a concurrent request with the same key waited for it.
      const raced = await findStaffAction(tx, input.requestKey);
      if (raced) return repeatOf(tx, raced, input);
      // A refund's key is audited only once its gateway call is answered: not another action's.
      const [refund] = await tx
        .select({ id: refunds.id })
        .from(refunds)
        .where(eq(refunds.requestKey, input.requestKey));
      if (refund) throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED);
      const before = await accountState(tx, user);
      const facts = (await act(tx, user)) ?? {};
      const [changed] = await tx.select().from(users).where(eq(users.id, user.id));
      const after = await accountState(tx, changed ?? user);
      const audit = await writeStaffAudit(tx, {
        actor: input.actor,
        action: input.action,
        userId: user.id,
        before: { ...before, ...facts.before },
        after: { ...after, ...facts.after },
        reason: input.reason,
        requestKey: input.requestKey,
        at: input.now,
      });
      return { auditId: audit.id, repeated: false, account: after };
    });
  } catch (error) {
    // The same key used at once on another account: the unique key refused the second row.
    if (isUniqueViolation(error)) {
      const row = await findStaffAction(db, input.requestKey);
      if (row) return repeatOf(db, row, input);
    }
    throw error;
  }
}

/**
 * The account's row, locked for the action as every money or status write locks it first
 * (lockAccount, docs/decisions/028); an unknown account is 404.
 */
export async function lockUser(tx: Transaction, userId: string): Promise<LockedUser> {
  const user = await lockAccount(tx, userId);
  if (!user) throw new AppError(ERROR_CODES.NOT_FOUND);
  return user;
}

/**
 * The answer to a request key already acted on: the first action's audit row and the account as
 * it is now. A key reused for another action or account is a client's mistake, refused.
 */
export async function repeatOf(
  db: Database | Transaction,
  row: StaffAuditRow,
  input: Pick<StaffActionInput, 'userId' | 'action'>,
): Promise<TStaffActionResult> {
  if (row.userId !== input.userId || row.action !== input.action) {
    throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED);
  }
  const [user] = await db.select().from(users).where(eq(users.id, input.userId));
  if (!user) throw new AppError(ERROR_CODES.NOT_FOUND);
  return { auditId: row.id, repeated: true, account: await accountState(db, user) };
}

/** PostgreSQL's unique_violation, as node-postgres or PGlite report it, wrapped or not. */
export function isUniqueViolation(error: unknown): boolean {
  return findUniqueViolation(error) !== null;
}
