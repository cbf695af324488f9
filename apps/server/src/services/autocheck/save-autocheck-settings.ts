import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { AUTOCHECK_MESSAGES, autoCheckInUse } from '@dealerpass/domain/schemas/autocheck';
import type { TUpdateCurrentUserRequest } from '@dealerpass/domain/schemas/profile';
import { ERROR_CODES, errorMessage, type IMessageVars } from '@dealerpass/domain/messages';
import {
  AutoCheckUnavailableError,
  type AutoCheckVerifier,
} from '../../adapters/autocheck/autocheck-verifier.ts';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError, type FieldError } from '../../errors/app-error.ts';
import { open, seal } from '../../lib/secret-box.ts';
import { checkIntegrationAccess } from '../integrations/check-integration-access.ts';
import { getUserRow, USER_ROW_FIELDS } from '../users/get-user-row.ts';
import type { UserRow } from '../users/serialize-user.ts';

export interface AutoCheckDeps {
  db: Database;
  verifier: AutoCheckVerifier;
  encryptionKey: Buffer;
  messageVars: IMessageVars;
}

const AUTOCHECK_KEYS = [
  'autoCheckId',
  'autoCheckPasswd',
  'autoCheckEnabled',
  'autoCheckAutoPurchase',
] as const;

/**
 * The AutoCheck part of `PUT /api/users/current` (000 §5, §7; issue 8; docs/decisions/015):
 * - no AutoCheck key, or `verifyAutoCheckCredentials: false` (a profile save): nothing changes;
 * - otherwise the account must be active and hold AC;
 * - everything blank and unticked removes the integration (ID, stored password, both boxes);
 * - else ID, a password (typed, or the stored one) and agree are required, and a changed ID or
 *   password is checked with AutoCheck first: a refusal is 'Invalid credentials. Please try
 *   again.' on both fields. The password is stored sealed to the account (R7), never returned.
 */
export async function saveAutoCheckSettings(
  deps: AutoCheckDeps,
  userId: string,
  request: TUpdateCurrentUserRequest,
  /** The request's logger: a check AutoCheck could not answer is logged with its request. */
  log: FastifyBaseLogger,
): Promise<UserRow> {
  const touched = AUTOCHECK_KEYS.some((key) => request[key] !== undefined);
  if (!touched || request.verifyAutoCheckCredentials === false) return getUserRow(deps.db, userId);
  const row = await checkIntegrationAccess(deps.db, userId, 'AC', deps.messageVars);

  const autoCheckId = (request.autoCheckId ?? row.autoCheckId ?? '').trim();
  const typedPassword = request.autoCheckPasswd ?? '';
  const enabled = request.autoCheckEnabled ?? row.autoCheckEnabled;
  const autoPurchase = request.autoCheckAutoPurchase ?? row.autoCheckAutoPurchase;

  if (
    !autoCheckInUse({
      autoCheckId,
      autoCheckPasswd: typedPassword,
      autoCheckEnabled: enabled,
      autoCheckAutoPurchase: autoPurchase,
    })
  ) {
    return update(deps.db, userId, {
      autoCheckId: null,
      autoCheckPasswordEnc: null,
      autoCheckEnabled: false,
      autoCheckAutoPurchase: false,
    });
  }

  const problems: FieldError[] = [];
  if (autoCheckId === '')
    problems.push({ source: 'autoCheckId', message: AUTOCHECK_MESSAGES.idRequired });
  if (typedPassword === '' && !row.autoCheckPasswordEnc)
    problems.push({ source: 'autoCheckPasswd', message: AUTOCHECK_MESSAGES.passwordRequired });
  if (!enabled) problems.push({ source: 'autoCheckEnabled', message: AUTOCHECK_MESSAGES.agree });
  if (problems.length > 0) throw new AppError(ERROR_CODES.VALIDATION_FAILED, { errors: problems });

  const password =
    typedPassword !== ''
      ? typedPassword
      : open(deps.encryptionKey, row.autoCheckPasswordEnc ?? '', userId);
  const changed = autoCheckId !== (row.autoCheckId ?? '') || typedPassword !== '';
  if (changed) {
    let verdict: 'valid' | 'invalid';
    try {
      verdict = await deps.verifier.verifyCredentials({ autoCheckId, password });
    } catch (error) {
      if (!(error instanceof AutoCheckUnavailableError)) throw error;
      log.warn({ err: error }, 'AutoCheck credential check unavailable');
      throw new AppError(ERROR_CODES.AUTOCHECK_UNAVAILABLE, { cause: error });
    }
    if (verdict === 'invalid') {
      const message = errorMessage(ERROR_CODES.INVALID_CREDENTIALS);
      throw new AppError(ERROR_CODES.INVALID_CREDENTIALS, {
        errors: [
          { source: 'autoCheckId', message },
          { source: 'autoCheckPasswd', message },
        ],
      });
    }
  }

  return update(deps.db, userId, {
    autoCheckId,
    // Sealed with the account id as associated data, as the demo seed stores it.
    autoCheckPasswordEnc: seal(deps.encryptionKey, password, userId),
    autoCheckEnabled: enabled,
    autoCheckAutoPurchase: autoPurchase,
  });
}

async function update(
  db: Database,
  userId: string,
  values: Pick<
    typeof users.$inferInsert,
    'autoCheckId' | 'autoCheckPasswordEnc' | 'autoCheckEnabled' | 'autoCheckAutoPurchase'
  >,
): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning(USER_ROW_FIELDS);
  if (!row) throw new AppError(ERROR_CODES.UNAUTHORIZED);
  return row;
}
