import { eq } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import {
  STAFF_MEMBER_MESSAGES,
  type TChangeStaffRoleRequest,
} from '@dealerpass/domain/admin/staff-members';
import type { Database } from '../../../db/client.ts';
import { staffUsers } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import { oncePerKey } from '../../request-keys/once-per-key.ts';
import { leavesNoAdmin, lockStaffMembers } from './lock-staff-members.ts';
import { writeStaffAudit } from '../audit/staff-audit.ts';
import type { StaffSession } from './staff-session-store.ts';

/**
 * An admin changes a member's role (R12), once per request key, audited with the role before
 * and after and the reason. The member's open sessions take the new role at their next request
 * (the session check reads the role each time). Refused (409 ACTION_NOT_ALLOWED, with its text):
 * the last admin who can sign in made support or billing, or the role the member has already.
 */
export async function changeStaffRole(
  db: Database,
  input: { actor: StaffSession; staffId: string; request: TChangeStaffRoleRequest; now: Date },
): Promise<{ auditId: number }> {
  const { request } = input;
  const keyed = {
    owner: { staffId: input.actor.staffId },
    action: 'changeStaffRole',
    target: { staffId: input.staffId },
    body: request,
  };
  return oncePerKey<{ auditId: number }>(db, keyed, {
    act: async (tx) => {
      const { member, enabledAdmins } = await lockStaffMembers(tx, input.staffId);
      const refuse = (message: string) => new AppError(ERROR_CODES.ACTION_NOT_ALLOWED, { message });
      if (member.role === request.role) throw refuse(STAFF_MEMBER_MESSAGES.sameRole);
      if (request.role !== 'admin' && leavesNoAdmin(member, enabledAdmins)) {
        throw refuse(STAFF_MEMBER_MESSAGES.lastAdmin);
      }
      await tx
        .update(staffUsers)
        .set({ role: request.role, updatedAt: input.now })
        .where(eq(staffUsers.id, member.id));
      const audit = await writeStaffAudit(tx, {
        actor: input.actor,
        action: 'changeStaffRole',
        before: { staffId: member.id, staffEmail: member.email, role: member.role },
        after: { staffId: member.id, staffEmail: member.email, role: request.role },
        reason: request.reason,
        requestKey: request.requestKey,
        at: input.now,
      });
      return { auditId: audit.id };
    },
  });
}
