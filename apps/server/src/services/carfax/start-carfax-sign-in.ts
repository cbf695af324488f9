import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt, or, isNotNull } from 'drizzle-orm';
import { carfaxSignIns } from '../../db/schema.ts';
import { seal } from '../../lib/secret-box.ts';
import type { CarfaxDeps } from './carfax-deps.ts';

export const CARFAX_SIGN_IN_TTL_MS = 15 * 60_000;

export const stateHash = (state: string) => createHash('sha256').update(state).digest('base64url');
export const verifierAad = (userId: string) => `carfax:pkce:${userId}`;

/**
 * 000 §4 sign-in, server half: the browser has stored its path and state; we keep a PKCE
 * verifier for that state, bound to this DealerPass session, and hand back the provider's
 * authorization URL (exact login callback as redirect URI, S256 challenge).
 */
export async function startCarfaxSignIn(
  deps: CarfaxDeps,
  input: { userId: string; sessionIdHash: string; state: string },
): Promise<{ authorizationUrl: string }> {
  const now = deps.now();
  const verifier = randomBytes(32).toString('base64url');
  // A user's finished or stale sign-ins are of no further use.
  await deps.db
    .delete(carfaxSignIns)
    .where(
      and(
        eq(carfaxSignIns.userId, input.userId),
        or(isNotNull(carfaxSignIns.consumedAt), lt(carfaxSignIns.expiresAt, now)),
      ),
    );
  await deps.db
    .insert(carfaxSignIns)
    .values({
      stateHash: stateHash(input.state),
      userId: input.userId,
      sessionIdHash: input.sessionIdHash,
      codeVerifierEnc: seal(deps.encryptionKey, verifier, verifierAad(input.userId)),
      expiresAt: new Date(now.getTime() + CARFAX_SIGN_IN_TTL_MS),
    })
    .onConflictDoNothing();
  return {
    authorizationUrl: await deps.client.authorizationUrl({
      state: input.state,
      codeVerifier: verifier,
      redirectUri: deps.loginCallbackUrl,
    }),
  };
}
