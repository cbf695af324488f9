import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { identities } from '../../db/schema.ts';
import { consumeIdentityToken, type TIdentityTokenPurpose } from './identity-tokens.ts';
import { hashPassword } from './passwords.ts';
import { clearSignInFailures, emailAccountKey } from './sign-in-failures.ts';

/**
 * A password from an e-mailed link (verification or reset, docs/decisions/009): the link is spent,
 * the Argon2id hash stored and the e-mail marked verified (the link reached it), all in one
 * transaction, so a failure leaves the link usable and the old password in place.
 */
export async function setPasswordWithToken(
  db: Database,
  input: { token: string; password: string; purpose: TIdentityTokenPurpose; now: Date },
): Promise<{ email: string }> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const { identityId, email } = await consumeIdentityToken(tx, {
      token: input.token,
      purpose: input.purpose,
      now: input.now,
    });
    await tx
      .update(identities)
      .set({ passwordHash, emailVerified: true, updatedAt: input.now })
      .where(eq(identities.id, identityId));
    await clearSignInFailures(tx, emailAccountKey(email));
    return { email };
  });
}
