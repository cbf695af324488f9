import { eq } from 'drizzle-orm';
import type { TStaffRole } from '@dealerpass/domain/admin/roles';
import { staffSessions, staffUsers } from '../../src/db/schema.ts';
import { hashPassword } from '../../src/services/identity/passwords.ts';
import { createStaffSession } from '../../src/services/admin/staff/staff-session-store.ts';
import { STAFF_SESSION_COOKIE } from '../../src/plugins/staff-session.ts';
import type { TestApp } from '../support/helper.ts';

export const STAFF_TEST_PASSWORD = 'Staff!Passw0rd';

/** A staff member (R12), with a password for the embedded provider and no authenticator yet. */
export async function createStaffUser(
  t: TestApp,
  input: { role: TStaffRole; email?: string; name?: string },
) {
  const [staff] = await t.app.db
    .insert(staffUsers)
    .values({
      email: input.email ?? `${input.role}-${Math.random().toString(36).slice(2, 8)}@staff.test`,
      name: input.name ?? `Test ${input.role}`,
      role: input.role,
      passwordHash: await hashPassword(STAFF_TEST_PASSWORD),
    })
    .returning();
  if (!staff) throw new Error('no staff user');
  return staff;
}

/**
 * A staff session as the console's sign-in makes one, by default with its second factor verified
 * (`secondFactor: false` for the state between the provider's sign-in and the TOTP code).
 * Returns the cookie header value and the member.
 */
export async function staffSessionFor(
  t: TestApp,
  role: TStaffRole,
  options: { secondFactor?: boolean; now?: Date; email?: string } = {},
) {
  const now = options.now ?? new Date();
  const staff = await createStaffUser(t, {
    role,
    ...(options.email ? { email: options.email } : {}),
  });
  const rawId = await createStaffSession(t.app.db, {
    staffId: staff.id,
    tokens: {},
    now,
    encryptionKey: t.app.keys.encryption,
  });
  if (options.secondFactor ?? true) {
    await t.app.db
      .update(staffUsers)
      .set({ totpEnrolledAt: now })
      .where(eq(staffUsers.id, staff.id));
    await t.app.db
      .update(staffSessions)
      .set({ secondFactorAt: now })
      .where(eq(staffSessions.staffId, staff.id));
  }
  return { staff, rawId, cookie: `${STAFF_SESSION_COOKIE}=${rawId}` };
}
