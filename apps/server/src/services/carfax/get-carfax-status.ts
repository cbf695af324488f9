import type { ICarfaxConnectionStatus } from '@dealerpass/domain/integrations/carfax';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../errors/app-error.ts';
import { connectionStatus, readCarfaxConnection } from './carfax-connection-store.ts';

/**
 * `GET /api/v2/oauth/carfax/status` (000 §4, 001 §4): connected (200) while the stored access
 * token has not expired, expired (401) after, missing (404) without tokens.
 */
export async function getCarfaxStatus(
  db: Database,
  userId: string,
  now: Date,
): Promise<ICarfaxConnectionStatus> {
  const row = await readCarfaxConnection(db, userId);
  if (!row) throw new AppError(ERROR_CODES.CARFAX_TOKENS_MISSING);
  if (row.accessExpiresAt.getTime() <= now.getTime())
    throw new AppError(ERROR_CODES.CARFAX_TOKENS_EXPIRED);
  return connectionStatus(row);
}
