import { and, eq, gt, isNull } from 'drizzle-orm';
import type { ICarfaxConnectionStatus } from '@dealerpass/domain/integrations/carfax';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { carfaxSignIns } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { open } from '../../lib/secret-box.ts';
import { carfaxFailure } from './carfax-provider-failure.ts';
import { connectionStatus, saveCarfaxTokens } from './carfax-connection-store.ts';
import type { CarfaxDeps } from './carfax-deps.ts';
import { stateHash, verifierAad } from './start-carfax-sign-in.ts';

/**
 * `GET /api/v2/oauth/carfax/tokens/{code}/{redirect URI}?state=` (000 §2, §7): the callback's
 * code is exchanged with the PKCE verifier of the sign-in this session started for that state
 * (taken once), and the tokens are stored sealed. The redirect URI must be our login callback,
 * exactly. Nothing of the tokens is answered.
 */
export async function connectCarfax(
  deps: CarfaxDeps,
  input: {
    userId: string;
    sessionIdHash: string;
    code: string;
    redirectUri: string;
    state: string;
  },
): Promise<ICarfaxConnectionStatus> {
  const refused = () =>
    new AppError(ERROR_CODES.CARFAX_TOKENS_FAILED, {
      statusCode: 400,
      errors: [
        { source: 'carfax', message: 'The Carfax sign-in is not valid. Please sign in again.' },
      ],
    });
  if (input.redirectUri !== deps.loginCallbackUrl) throw refused();
  const now = deps.now();
  const [signIn] = await deps.db
    .update(carfaxSignIns)
    .set({ consumedAt: now })
    .where(
      and(
        eq(carfaxSignIns.stateHash, stateHash(input.state)),
        eq(carfaxSignIns.userId, input.userId),
        eq(carfaxSignIns.sessionIdHash, input.sessionIdHash),
        isNull(carfaxSignIns.consumedAt),
        gt(carfaxSignIns.expiresAt, now),
      ),
    )
    .returning();
  if (!signIn) throw refused();
  const codeVerifier = open(deps.encryptionKey, signIn.codeVerifierEnc, verifierAad(input.userId));
  let tokens;
  try {
    tokens = await deps.client.exchangeCode({
      code: input.code,
      redirectUri: deps.loginCallbackUrl,
      codeVerifier,
    });
  } catch (error) {
    deps.log.warn({ err: error }, 'Carfax code exchange failed');
    carfaxFailure(error, 'CARFAX_TOKENS_FAILED', deps.messageVars);
  }
  const row = await saveCarfaxTokens(deps.db, deps.encryptionKey, {
    userId: input.userId,
    tokens,
    now: deps.now(),
  });
  deps.log.info({ carfax: 'connected' }, 'Carfax connected');
  return connectionStatus(row);
}
