import type { Database, Transaction } from '../../db/client.ts';
import { consumeIdentityToken, issueIdentityToken } from './identity-tokens.ts';

/**
 * The one-time sign-in grant that follows a first password (DECISIONS R6, docs/decisions/017): an
 * HttpOnly cookie of the browser that set the password, worth one sign-in at the embedded
 * provider's interaction in place of typing the password again. Only its digest is stored.
 */
export const SIGN_IN_GRANT_COOKIE = '__Host-dp-signin';
/** Long enough for the browser to follow /login to the provider, short enough to be useless later. */
export const SIGN_IN_GRANT_TTL_MINUTES = 2;

export function issueSignInGrant(
  tx: Database | Transaction,
  input: { identityId: string; now: Date },
): Promise<string> {
  return issueIdentityToken(tx, {
    identityId: input.identityId,
    purpose: 'sign-in',
    now: input.now,
    ttlMinutes: SIGN_IN_GRANT_TTL_MINUTES,
  });
}

/** Spends a grant: the identity it signs in, or null for an unknown, used or expired one. */
export async function redeemSignInGrant(
  db: Database,
  input: { grant: string; now: Date },
): Promise<string | null> {
  try {
    return await db.transaction(async (tx) => {
      const { identityId } = await consumeIdentityToken(tx, {
        token: input.grant,
        purpose: 'sign-in',
        now: input.now,
      });
      return identityId;
    });
  } catch {
    return null;
  }
}
