import { and, eq } from 'drizzle-orm';
import type { ICarfaxConnectionStatus } from '@dealerpass/domain/integrations/carfax';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { CarfaxProviderError } from '../../adapters/carfax/carfax-oauth-client.ts';
import { carfaxConnections } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { carfaxFailure } from './carfax-provider-failure.ts';
import {
  connectionStatus,
  openCarfaxTokens,
  readCarfaxConnection,
  saveCarfaxTokens,
} from './carfax-connection-store.ts';
import type { CarfaxDeps } from './carfax-deps.ts';

/** Tokens renewed this recently are left alone: a second tab asked at the same moment. */
const JUST_REFRESHED_MS = 10_000;

/**
 * `POST /api/v2/oauth/carfax/refresh`: new tokens from the refresh token, before or after the
 * access token expires. A refresh token the provider no longer honours ends the connection
 * (the user signs in again), unless another request renewed it meanwhile.
 */
export async function refreshCarfaxTokens(
  deps: CarfaxDeps,
  userId: string,
): Promise<ICarfaxConnectionStatus> {
  const row = await readCarfaxConnection(deps.db, userId);
  if (!row) throw new AppError(ERROR_CODES.CARFAX_TOKENS_MISSING);
  const now = deps.now();
  if (now.getTime() - row.updatedAt.getTime() < JUST_REFRESHED_MS && row.accessExpiresAt > now)
    return connectionStatus(row);
  const { refreshToken } = openCarfaxTokens(deps.encryptionKey, row);
  if (!refreshToken) throw new AppError(ERROR_CODES.CARFAX_TOKENS_EXPIRED);
  try {
    const tokens = await deps.client.refresh(refreshToken);
    const saved = await saveCarfaxTokens(deps.db, deps.encryptionKey, {
      userId,
      tokens,
      now: deps.now(),
      keepRefreshTokenEnc: row.refreshTokenEnc,
    });
    return connectionStatus(saved);
  } catch (error) {
    deps.log.warn({ err: error }, 'Carfax token refresh failed');
    if (error instanceof CarfaxProviderError && error.oauthError === 'invalid_grant') {
      const current = await readCarfaxConnection(deps.db, userId);
      if (current && current.updatedAt.getTime() !== row.updatedAt.getTime())
        return connectionStatus(current);
      // Dead for good: forget it, only if nobody stored new tokens in between.
      await deps.db
        .delete(carfaxConnections)
        .where(
          and(eq(carfaxConnections.userId, userId), eq(carfaxConnections.updatedAt, row.updatedAt)),
        );
    }
    carfaxFailure(error, 'CARFAX_PROVIDER_ERROR', deps.messageVars);
  }
}
