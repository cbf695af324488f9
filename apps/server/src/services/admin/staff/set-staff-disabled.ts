import { and, eq, isNull } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import {
  STAFF_MEMBER_MESSAGES,
  type TSetStaffDisabledRequest,
} from '@dealerpass/domain/admin/staff-members';
import type { Database } from '../../../db/client.ts';
import { staffSessions, staffUsers } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import { oncePerKey } from '../../request-keys/once-per-key.ts';
import { leavesNoAdmin, lockStaffMembers } from './lock-staff-members.ts';
import { writeStaffAudit } from '../audit/staff-audit.ts';
import type { StaffSession } from './staff-session-store.ts';

/**
 * An admin disables a member or enables them again (R12: admins manage staff), once per request
 * key (decision 031), audited with the member's state before and after and the reason. A disabled member's
 * sessions end at once (and the session check refuses any it meets, staff-session-store.ts) and
 * they cannot sign in (authenticate-staff.ts). Refused (409 ACTION_NOT_ALLOWED, with its text):
 * an admin disabling themself, disabling the last admin who can sign in, nothing to change.
 */
export async function setStaffDisabled(
  db: Database,
  input: { actor: StaffSession; staffId: string; request: TSetStaffDisabledRequest; now: Date },
): Promise<{ auditId: number }> {
  const { request } = input;
  const action = request.disabled ? 'disableStaff' : 'enableStaff';
  const keyed = {
    owner: { staffId: input.actor.staffId },
    action: action,
    target: { staffId: input.staffId },
    body: request,
  };
  return oncePerKey<{ auditId: number }>(db, keyed, {
    act: async (tx) => {
      const { member, enabledAdmins } = await lockStaffMembers(tx, input.staffId);
      const refuse = (message: string) => new AppError(ERROR_CODES.ACTION_NOT_ALLOWED, { message });
      if (request.disabled) {
        if (member.id === input.actor.staffId) throw refuse(STAFF_MEMBER_MESSAGES.disableSelf);
        if (member.disabledAt) throw refuse(STAFF_MEMBER_MESSAGES.alreadyDisabled);
        if (leavesNoAdmin(member, enabledAdmins)) throw refuse(STAFF_MEMBER_MESSAGES.lastAdmin);
      } else if (!member.disabledAt) {
        throw refuse(STAFF_MEMBER_MESSAGES.alreadyEnabled);
      }
      await tx
        .update(staffUsers)
        .set({ disabledAt: request.disabled ? input.now : null, updatedAt: input.now })
        .where(eq(staffUsers.id, member.id));
      if (request.disabled) {
        await tx
          .update(staffSessions)
          .set({
            endedAt: input.now,
            endReason: 'disabled',
            tokensEnc: null,
            pendingTotpSecretEnc: null,
          })
          .where(and(eq(staffSessions.staffId, member.id), isNull(staffSessions.endedAt)));
      }
      const audit = await writeStaffAudit(tx, {
        actor: input.actor,
        action,
        before: {
          staffId: member.id,
          staffEmail: member.email,
          disabled: member.disabledAt !== null,
        },
        after: { staffId: member.id, staffEmail: member.email, disabled: request.disabled },
        reason: request.reason,
        requestKey: request.requestKey,
        at: input.now,
      });
      return { auditId: audit.id };
    },
  });
}
