import { eq } from 'drizzle-orm';
import type { TStaffAction } from '@dealerpass/domain/admin/roles';
import type { Database, Transaction } from '../../../db/client.ts';
import { staffAudit } from '../../../db/schema.ts';
import type { StaffSession } from '../staff/staff-session-store.ts';

export type StaffAuditRow = typeof staffAudit.$inferSelect;

/** The staff member acting, as the audit names them. */
export type StaffActor = Pick<StaffSession, 'staffId' | 'email'>;

/**
 * The audit row of an action already taken under this request key, if any: a repeated request
 * (double click, retried call) finds it and answers what the first one did, acting no second time.
 */
export async function findStaffAction(
  db: Database | Transaction,
  requestKey: string,
): Promise<StaffAuditRow | null> {
  const [row] = await db.select().from(staffAudit).where(eq(staffAudit.requestKey, requestKey));
  return row ?? null;
}

/**
 * Writes the append-only audit row of a staff action (R12: who, when, which account, what,
 * before and after, and the reason), in the transaction of the change it records, so either both
 * are committed or neither. A second request with the same key fails on the unique key and rolls
 * its change back.
 */
export async function writeStaffAudit(
  db: Database | Transaction,
  input: {
    actor: StaffActor;
    action: TStaffAction | 'signIn' | 'enrolSecondFactor';
    userId?: string | null;
    before?: unknown;
    after?: unknown;
    reason?: string | null;
    requestKey?: string | null;
    at: Date;
  },
): Promise<StaffAuditRow> {
  const [row] = await db
    .insert(staffAudit)
    .values({
      at: input.at,
      staffId: input.actor.staffId,
      staffEmail: input.actor.email,
      userId: input.userId ?? null,
      action: input.action,
      before: input.before ?? null,
      after: input.after ?? null,
      reason: input.reason ?? null,
      requestKey: input.requestKey ?? null,
    })
    .returning();
  if (!row) throw new Error('the audit row was not written');
  return row;
}
