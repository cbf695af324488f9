import { CarfaxProviderError } from '../../adapters/carfax/carfax-oauth-client.ts';
import { carfaxFailure } from './carfax-provider-failure.ts';
import { deleteCarfaxConnection, openCarfaxTokens } from './carfax-connection-store.ts';
import type { CarfaxDeps } from './carfax-deps.ts';

/**
 * `POST /api/v2/oauth/carfax/revoke` (000 §4 sign-out): our copy of the tokens is deleted first,
 * whatever Carfax answers, then both tokens are revoked at Carfax (RFC 7009). The answer is the
 * provider's logout URL, which returns to our logout callback.
 */
export async function disconnectCarfax(
  deps: CarfaxDeps,
  userId: string,
): Promise<{ logoutUrl: string; revoked: boolean }> {
  const logoutUrl = deps.client.logoutUrl({ returnTo: deps.logoutCallbackUrl });
  const row = await deleteCarfaxConnection(deps.db, userId);
  if (!row) return { logoutUrl, revoked: false };
  const tokens = openCarfaxTokens(deps.encryptionKey, row);
  try {
    if (tokens.refreshToken) await deps.client.revoke(tokens.refreshToken, 'refresh_token');
    await deps.client.revoke(tokens.accessToken, 'access_token');
  } catch (error) {
    deps.log.warn({ err: error }, 'Carfax token revocation failed');
    if (error instanceof CarfaxProviderError)
      carfaxFailure(error, 'CARFAX_PROVIDER_ERROR', deps.messageVars);
    throw error;
  }
  deps.log.info({ carfax: 'disconnected' }, 'Carfax tokens revoked');
  return { logoutUrl, revoked: true };
}
