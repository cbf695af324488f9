import { eq } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { TStaffAction } from '@dealerpass/domain/admin/roles';
import type {
  TStaffAccountState,
  TStaffActionResult,
} from '@dealerpass/domain/admin/account-actions';
import type { Database, Transaction } from '../../../db/client.ts';
import { users } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import { getBalanceCents } from '../../billing/account-balance.ts';
import { lockAccount } from '../../billing/ledger/lock-account.ts';
import { oncePerKey, type KeyedRequest } from '../../request-keys/once-per-key.ts';
import { writeStaffAudit, type StaffActor } from '../audit/staff-audit.ts';

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
  /** What the request asked, recorded with its key (decision 031): the route's parameters and body. */
  sent: { params: Record<string, string>; body: object };
}

/** The account's status, complimentary flag and balance, as an audit row and an answer show it. */
export async function accountState(
  db: Database | Transaction,
  user: Pick<LockedUser, 'id' | 'accountStatus' | 'complimentary'>,
): Promise<TStaffAccountState> {
  return {
    userId: user.id,
    accountStatus: user.accountStatus,
    complimentary: user.complimentary,
    balanceCents: await getBalanceCents(db, user.id),
  };
}

/** What a staff action writes on an account event: who did it (R12, decision 026). */
export const staffEventDetails = (actor: StaffActor) => ({
  staffId: actor.staffId,
  staffEmail: actor.email,
});

/**
 * Runs one staff action on one account once per request key (R12, decisions 026 and 031,
 * `oncePerKey`): the account's row is locked, `act` makes the change and the audit row is
 * written in its transaction, with the account's state before and after. A repeat of the same
 * request answers the first result with the account as it is now; `act` throws an AppError to
 * refuse (nothing is written then, and the key stays unused).
 */
export async function takeStaffAction(
  db: Database,
  input: StaffActionInput,
  act: (
    tx: Transaction,
    user: LockedUser,
  ) => Promise<{ before?: AuditFacts; after?: AuditFacts } | void>,
): Promise<TStaffActionResult> {
  return oncePerKey<TStaffActionResult>(db, staffRequest(input), {
    act: async (tx) => {
      const user = await lockUser(tx, input.userId);
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
    },
    repeat: async (first) => {
      const [user] = await db.select().from(users).where(eq(users.id, input.userId));
      if (!user) throw new AppError(ERROR_CODES.NOT_FOUND);
      return { auditId: first.auditId, repeated: true, account: await accountState(db, user) };
    },
  });
}

/** What an account action's key records: the member, the action, the route's target and body. */
export function staffRequest(
  input: Pick<StaffActionInput, 'actor' | 'action' | 'sent'>,
): KeyedRequest {
  return {
    owner: { staffId: input.actor.staffId },
    action: input.action,
    target: input.sent.params,
    body: input.sent.body,
  };
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
