import { createHash } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import * as client from 'openid-client';
import type { Database } from '../../db/client.ts';
import { loginTransactions } from '../../db/schema.ts';
import type { SessionContext } from './session-store.ts';

const TRANSACTION_TTL_MS = 10 * 60 * 1000;
const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/**
 * A sign-in in progress: fresh state, nonce and PKCE verifier, stored (hashed state) with where
 * to go afterwards, bound to the browser by a cookie secret. Returns what the authorize URL needs.
 */
export async function startLoginTransaction(
  db: Database,
  input: {
    browserSecret: string;
    context: SessionContext | 'staff';
    returnTo: string;
    now: Date;
  },
): Promise<{ state: string; nonce: string; codeVerifier: string }> {
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  await db.insert(loginTransactions).values({
    stateHash: sha256(state),
    browserHash: sha256(input.browserSecret),
    nonce,
    codeVerifier,
    returnTo: input.returnTo,
    context: input.context,
    expiresAt: new Date(input.now.getTime() + TRANSACTION_TTL_MS),
  });
  // Old, finished or abandoned transactions are not needed by anyone.
  await db
    .delete(loginTransactions)
    .where(lt(loginTransactions.expiresAt, new Date(input.now.getTime() - TRANSACTION_TTL_MS)));
  return { state, nonce, codeVerifier };
}

/** Takes the transaction for a callback's state exactly once, and only in the browser that started it. */
export async function consumeLoginTransaction(
  db: Database,
  input: { state: string; browserSecret: string | undefined; now: Date },
) {
  if (!input.browserSecret) return null;
  const [row] = await db
    .update(loginTransactions)
    .set({ consumedAt: input.now })
    .where(
      and(
        eq(loginTransactions.stateHash, sha256(input.state)),
        eq(loginTransactions.browserHash, sha256(input.browserSecret)),
        isNull(loginTransactions.consumedAt),
        gt(loginTransactions.expiresAt, input.now),
      ),
    )
    .returning();
  return row ?? null;
}
