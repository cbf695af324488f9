import { accountFlags } from '@dealerpass/domain/account/status';
import { ERROR_CODES, errorMessage, type IMessageVars } from '@dealerpass/domain/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../errors/app-error.ts';
import { getUserRow } from '../users/get-user-row.ts';

/**
 * docs/decisions/009: only `GET /api/users/current` answers a blocked account; every other
 * signed-in route refuses it with 403 ACCOUNT_BLOCKED, as `connectKarId` does.
 */
export async function refuseBlockedAccount(
  db: Database,
  userId: string,
  messageVars: IMessageVars,
): Promise<void> {
  if (accountFlags(await getUserRow(db, userId)).blocked) {
    throw new AppError(ERROR_CODES.ACCOUNT_BLOCKED, {
      message: errorMessage(ERROR_CODES.ACCOUNT_BLOCKED, messageVars),
    });
  }
}
