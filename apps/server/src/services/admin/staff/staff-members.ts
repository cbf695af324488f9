import { asc, eq } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import {
  STAFF_MEMBER_MESSAGES,
  type TCreateStaffMemberRequest,
  type TStaffMember,
} from '@dealerpass/domain/admin/staff-members';
import type { Database } from '../../../db/client.ts';
import { staffUsers } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import { hashPassword } from '../../identity/passwords.ts';
import { oncePerKey } from '../../request-keys/once-per-key.ts';
import { writeStaffAudit } from '../audit/staff-audit.ts';
import type { StaffSession } from './staff-session-store.ts';

/** Every staff member, for the admins' Staff page: never a password or secret, only whether set. */
export async function listStaffMembers(db: Database): Promise<TStaffMember[]> {
  const rows = await db.select().from(staffUsers).orderBy(asc(staffUsers.email));
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    enrolled: row.totpEnrolledAt !== null,
    disabled: row.disabledAt !== null,
    createdAt: row.createdAt.toISOString(),
  }));
}

/**
 * An admin adds a member (R12). With the embedded provider the admin sets a first password;
 * with an external one the member signs in there and is matched by e-mail. The member enrols an
 * authenticator at the first sign-in. Once per request key (decision 031): the key again for
 * another e-mail, name or role is 409, not a second "added".
 */
export async function createStaffMember(
  db: Database,
  input: { actor: StaffSession; request: TCreateStaffMemberRequest; now: Date; embedded: boolean },
): Promise<{ auditId: number; staffId: string }> {
  const { request } = input;
  if (input.embedded && !request.password) {
    throw new AppError(ERROR_CODES.VALIDATION_FAILED, {
      errors: [{ source: 'password', message: STAFF_MEMBER_MESSAGES.firstPasswordRequired }],
    });
  }
  const passwordHash =
    input.embedded && request.password ? await hashPassword(request.password) : null;
  // The first password is not part of what the key records: no hash of a secret is kept.
  const { password: _secret, ...recorded } = request;
  const keyed = { owner: input.actor, action: 'createStaff', target: {}, body: recorded };
  return oncePerKey<{ auditId: number; staffId: string }>(db, keyed, {
    act: async (tx) => {
      const [existing] = await tx
        .select({ id: staffUsers.id })
        .from(staffUsers)
        .where(eq(staffUsers.email, request.email));
      if (existing) {
        throw new AppError(ERROR_CODES.EMAIL_IN_USE, {
          errors: [{ source: 'email', message: STAFF_MEMBER_MESSAGES.emailInUse }],
        });
      }
      const [created] = await tx
        .insert(staffUsers)
        .values({ email: request.email, name: request.name, role: request.role, passwordHash })
        .returning({ id: staffUsers.id });
      if (!created) throw new Error('the staff member was not created');
      const audit = await writeStaffAudit(tx, {
        actor: input.actor,
        action: 'createStaff',
        before: null,
        after: {
          staffId: created.id,
          email: request.email,
          name: request.name,
          role: request.role,
        },
        requestKey: request.requestKey,
        at: input.now,
      });
      return { auditId: audit.id, staffId: created.id };
    },
  });
}
