import {
  integrationAccess,
  type TIntegrationCode,
} from '@dealerpass/domain/integrations/integration-access';
import { ERROR_CODES, errorMessage, type IMessageVars } from '@dealerpass/domain/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../errors/app-error.ts';
import { getUserRow } from '../users/get-user-row.ts';
import type { UserRow } from '../users/serialize-user.ts';

/**
 * Issue 8 "Access": an integration route serves only an active account that holds the code
 * (CF or AC), whatever the web app shows. Blocked → 403 ACCOUNT_BLOCKED (as every other signed-in
 * route, docs/decisions/009); inactive → 403 ACCOUNT_INACTIVE; code not held → 403 INTEGRATION_NOT_HELD.
 */
export async function checkIntegrationAccess(
  db: Database,
  userId: string,
  code: TIntegrationCode,
  messageVars: IMessageVars,
): Promise<UserRow> {
  const row = await getUserRow(db, userId);
  const access = integrationAccess(row, code);
  if (access === 'blocked') {
    throw new AppError(ERROR_CODES.ACCOUNT_BLOCKED, {
      message: errorMessage(ERROR_CODES.ACCOUNT_BLOCKED, messageVars),
    });
  }
  if (access === 'inactive') throw new AppError(ERROR_CODES.ACCOUNT_INACTIVE);
  if (access === 'not-held') throw new AppError(ERROR_CODES.INTEGRATION_NOT_HELD);
  return row;
}
