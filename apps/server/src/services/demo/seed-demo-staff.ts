import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { staffUsers } from '../../db/schema.ts';
import { hashPassword } from '../identity/passwords.ts';
import { sealTotpSecret } from '../admin/staff/second-factor.ts';
import { DEMO_STAFF, DEMO_STAFF_PASSWORD } from './demo-staff.ts';
import type { TTestAccountsFile } from './read-test-accounts.ts';

/**
 * Adds the demo staff members that are missing (demo-staff.ts), and the test-only ones given
 * (TEST_ACCOUNTS_FILE, docs/decisions/065); existing ones are left alone.
 */
export async function seedDemoStaff(
  db: Database,
  input: { now: Date; encryptionKey: Buffer; testAccounts?: TTestAccountsFile },
): Promise<number> {
  const members = [...DEMO_STAFF, ...(input.testAccounts?.staff ?? [])];
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
