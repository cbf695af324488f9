import { eq, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { identities, users } from '../../db/schema.ts';
import { normalizeIdentityEmail } from './create-identity.ts';
import { verifyDummyPassword, verifyPassword } from './passwords.ts';
import {
  emailAccountKey,
  isSignInLocked,
  legacyAccountKey,
  recordSignInFailure,
} from './sign-in-failures.ts';

export type TEmailSignInResult =
  { ok: true; identityId: string; email: string } | { ok: false; reason: 'invalid' | 'locked' };

export type TLegacySignInResult =
  { ok: true; userId: string } | { ok: false; reason: 'invalid' | 'locked' | 'migrated' };

/**
 * A DealerPass ID sign-in (docs/decisions/009): e-mail (any case) and password. An unknown
 * e-mail, an account without a password yet and a wrong password all answer 'invalid' after
 * the same Argon2id work, and each counts as a failure; the 101st attempt within an hour
 * answers 'locked' without checking the password.
 */
export async function authenticateWithEmail(
  db: Database | Transaction,
  input: { email: string; password: string; now: Date },
): Promise<TEmailSignInResult> {
  const email = normalizeIdentityEmail(input.email);
  const accountKey = emailAccountKey(email);
  if (await isSignInLocked(db, accountKey, input.now)) return { ok: false, reason: 'locked' };

  const [identity] = await db
    .select({
      id: identities.id,
      email: identities.email,
      passwordHash: identities.passwordHash,
    })
    .from(identities)
    .where(eq(identities.email, email))
    .limit(1);
  const matches = identity?.passwordHash
    ? await verifyPassword(identity.passwordHash, input.password)
    : await verifyDummyPassword(input.password);
  if (!identity || !matches) {
    await recordSignInFailure(db, accountKey, input.now);
    return { ok: false, reason: 'invalid' };
  }
  return { ok: true, identityId: identity.id, email: identity.email };
}

/**
 * A migrated account's sign-in with its legacy username (any case) and password (DECISIONS R6).
 * Once that account has a DealerPass ID, the right legacy password answers 'migrated' (001 §8:
 * 'This username is associated with an existing migrated … ID'); a wrong one stays 'invalid', so
 * the answer tells nothing to someone without the password.
 */
export async function authenticateLegacy(
  db: Database | Transaction,
  input: { username: string; password: string; now: Date },
): Promise<TLegacySignInResult> {
  const username = input.username.trim().toLowerCase();
  const accountKey = legacyAccountKey(username);
  if (await isSignInLocked(db, accountKey, input.now)) return { ok: false, reason: 'locked' };

  const [user] = username
    ? await db
        .select({
          id: users.id,
          karId: users.karId,
          legacyPasswordHash: users.legacyPasswordHash,
        })
        .from(users)
        .where(sql`lower(${users.legacyUsername}) = ${username}`)
        .limit(1)
    : [];
  const matches = user?.legacyPasswordHash
    ? await verifyPassword(user.legacyPasswordHash, input.password)
    : await verifyDummyPassword(input.password);
  if (!user || !matches) {
    await recordSignInFailure(db, accountKey, input.now);
    return { ok: false, reason: 'invalid' };
  }
  if (user.karId) return { ok: false, reason: 'migrated' };
  return { ok: true, userId: user.id };
}
