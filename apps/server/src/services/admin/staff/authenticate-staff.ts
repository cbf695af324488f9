import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { staffUsers } from '../../../db/schema.ts';
import { passesChallenge, type ISignInCaptcha } from '../../identity/authenticate.ts';
import { verifyDummyPassword, verifyPassword } from '../../identity/passwords.ts';
import { staffAccountKey } from '../../identity/sign-in-failures.ts';
import type { FailureBudgetStore } from '../../limits/failure-budgets.ts';

export type TStaffSignInResult =
  { ok: true; staffId: string } | { ok: false; reason: 'invalid' | 'captcha' };

/**
 * A staff member's password at the embedded provider (R12, docs/decisions/026), the dealers'
 * rules: the same Argon2id work for an unknown e-mail, failures counted per member, a captcha
 * after repeated ones. A disabled member is refused like a wrong password. The second factor
 * comes after, in the console's own session.
 */
export async function authenticateStaff(
  db: Database,
  input: {
    email: string;
    password: string;
    now: Date;
    captcha?: ISignInCaptcha;
    failures: FailureBudgetStore;
  },
): Promise<TStaffSignInResult> {
  const email = input.email.trim().toLowerCase();
  const accountKey = staffAccountKey(email);
  if (!(await passesChallenge(db, input.failures, accountKey, input.now, input.captcha)))
    return { ok: false, reason: 'captcha' };
  const [staff] = await db
    .select({ id: staffUsers.id, passwordHash: staffUsers.passwordHash })
    .from(staffUsers)
    .where(and(eq(staffUsers.email, email), isNull(staffUsers.disabledAt)))
    .limit(1);
  const matches = staff?.passwordHash
    ? await verifyPassword(staff.passwordHash, input.password)
    : await verifyDummyPassword(input.password);
  // A wrong password keeps the attempt passesChallenge took (docs/decisions/029).
  if (!staff || !matches) return { ok: false, reason: 'invalid' };
  await input.failures.clear(accountKey);
  return { ok: true, staffId: staff.id };
}
