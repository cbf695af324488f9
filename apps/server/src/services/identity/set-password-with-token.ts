import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { identities } from '../../db/schema.ts';
import { endSessionsOfIdentity, type ProviderTokens } from '../session/session-store.ts';
import { consumeIdentityToken, type TIdentityTokenPurpose } from './identity-tokens.ts';
import { hashPassword } from './passwords.ts';
import { issueSignInGrant } from './sign-in-grant.ts';
import { clearSignInFailures, emailAccountKey } from './sign-in-failures.ts';

/**
 * A password from an e-mailed link (verification or reset, docs/decisions/009): the link is spent,
 * the Argon2id hash stored, the e-mail marked verified (the link reached it) and every session of
 * the account ended (issue 13.7), all in one transaction, so a failure leaves the link usable and
 * the old password in place. With `signIn`, a one-time sign-in grant is issued in the same step
 * (R6: a first password signs the user in, docs/decisions/017). The ended sessions' provider
 * tokens are returned for the caller to revoke.
 */
export async function setPasswordWithToken(
  db: Database,
  input: {
    token: string;
    password: string;
    purpose: TIdentityTokenPurpose;
    now: Date;
    encryptionKey: Buffer;
    signIn?: boolean;
  },
): Promise<{ email: string; endedSessionTokens: ProviderTokens[]; signInGrant: string | null }> {
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
    const endedSessionTokens = await endSessionsOfIdentity(tx, {
      identityId,
      now: input.now,
      encryptionKey: input.encryptionKey,
    });
    const signInGrant = input.signIn
      ? await issueSignInGrant(tx, { identityId, now: input.now })
      : null;
    return { email, endedSessionTokens, signInGrant };
  });
}
