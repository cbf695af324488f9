import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { staffUsers } from '../../db/schema.ts';
import { hashPassword } from '../identity/passwords.ts';
import { sealTotpSecret } from '../admin/staff/second-factor.ts';
import { DEMO_STAFF, DEMO_STAFF_PASSWORD, E2E_STAFF } from './demo-staff.ts';

/** Adds the demo staff members that are missing (demo-staff.ts); existing ones are left alone. */
export async function seedDemoStaff(
  db: Database,
  input: { now: Date; encryptionKey: Buffer; includeE2e: boolean },
): Promise<number> {
  const members = input.includeE2e ? [...DEMO_STAFF, ...E2E_STAFF] : DEMO_STAFF;
  const passwordHash = await hashPassword(DEMO_STAFF_PASSWORD);
  let added = 0;
  for (const member of members) {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(staffUsers)
        .values({
          email: member.email,
          name: member.name,
          role: member.role,
          passwordHash,
          createdAt: input.now,
        })
        .onConflictDoNothing({ target: staffUsers.email })
        .returning({ id: staffUsers.id });
      if (!row) return;
      added += 1;
      if (member.totpSecret) {
        await tx
          .update(staffUsers)
          .set({
            totpSecretEnc: sealTotpSecret(input.encryptionKey, row.id, member.totpSecret),
            totpEnrolledAt: input.now,
          })
          .where(eq(staffUsers.id, row.id));
      }
    });
  }
  return added;
}
