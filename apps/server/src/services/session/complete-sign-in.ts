import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { LEGACY_SUBJECT_PREFIX } from '../../identity/provider/embedded-provider.ts';
import type { RelyingParty } from '../../identity/relying-party.ts';
import { consumeLoginTransaction } from './login-transactions.ts';
import { createSession } from './session-store.ts';

export interface CompleteSignInDeps {
  db: Database;
  rp: RelyingParty;
  now: () => Date;
  encryptionKey: Buffer;
}

export type SignInOutcome =
  /** Unknown, replayed or foreign state, or the relying party's checks failed. */
  | { kind: 'refused' }
  /** A valid DealerPass ID without a DealerPass account; its tokens are revoked. */
  | { kind: 'no-account' }
  | { kind: 'signed-in'; rawSessionId: string; returnTo: string };

/**
 * The sign-in callback (docs/decisions/009 step 5): takes the login transaction once, exchanges
 * the code and checks the ID token, finds the account by subject (`users.kar_id`, or the legacy
 * id), starts a session and revokes the tokens of the sessions it replaced. The route only turns
 * the outcome into cookies and a redirect.
 */
export async function completeSignIn(
  deps: CompleteSignInDeps,
  input: { callbackUrl: URL; browserSecret: string | undefined; log: FastifyBaseLogger },
): Promise<SignInOutcome> {
  const { rp } = deps;
  const { log } = input;
  const state = input.callbackUrl.searchParams.get('state');
  const transaction = state
    ? await consumeLoginTransaction(deps.db, {
        state,
        browserSecret: input.browserSecret,
        now: deps.now(),
      })
    : null;
  // A staff sign-in's transaction is the operator console's callback's, never a dealer's.
  if (!transaction || !state || transaction.context === 'staff') {
    log.warn('sign-in callback refused: unknown, replayed or foreign state');
    return { kind: 'refused' };
  }

  let result;
  try {
    result = await rp.completeSignIn(input.callbackUrl, {
      state,
      nonce: transaction.nonce,
      codeVerifier: transaction.codeVerifier,
    });
  } catch (error) {
    log.warn({ err: error }, 'sign-in callback refused by the relying-party checks');
    return { kind: 'refused' };
  }

  const legacy = result.subject.startsWith(LEGACY_SUBJECT_PREFIX);
  const [user] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(
      legacy
        ? eq(users.id, result.subject.slice(LEGACY_SUBJECT_PREFIX.length))
        : eq(users.karId, result.subject),
    )
    .limit(1);
  if (!user) {
    log.info('signed in with a DealerPass ID that has no DealerPass account');
    await rp.revoke(result.tokens).catch(() => undefined);
    return { kind: 'no-account' };
  }

  const { rawId, replaced } = await createSession(deps.db, {
    userId: user.id,
    context: transaction.context,
    viaKarId: !legacy,
    tokens: result.tokens,
    now: deps.now(),
    encryptionKey: deps.encryptionKey,
  });
  for (const tokens of replaced) {
    await rp
      .revoke(tokens)
      .catch((error: unknown) => log.warn({ err: error }, 'revoking a replaced session failed'));
  }
  log.info({ userId: user.id, context: transaction.context }, 'session started');
  return {
    kind: 'signed-in',
    rawSessionId: rawId,
    returnTo: transaction.returnTo,
  };
}
