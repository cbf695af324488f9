import { and, eq, isNull } from 'drizzle-orm';
import { accountFlags } from '@dealerpass/domain/account/status';
import { ERROR_CODES, errorMessage, type IMessageVars } from '@dealerpass/domain/messages';
import type { TConnectKarIdRequest } from '@dealerpass/domain/schemas/identity';
import type { Database } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import {
  authenticateWithEmail,
  signInRefusal,
  type ISignInCaptcha,
} from '../identity/authenticate.ts';
import type { CaptchaVerifier } from '../../adapters/captcha/captcha-verifier.ts';
import type { FailureBudgetStore } from '../limits/failure-budgets.ts';
import { createIdentity } from '../identity/create-identity.ts';
import { getUserRow, USER_ROW_FIELDS } from './get-user-row.ts';
import { refuseCompanyEmail } from './refuse-company-email.ts';
import type { UserRow } from './serialize-user.ts';

/**
 * `/account/karid/connect` (DECISIONS R6, docs/decisions/009): a migrated account without a
 * DealerPass ID creates one (e-mail + new password) or links an existing one (its e-mail and
 * password). In one transaction the user's `kar_id` is set and the caller's session counts as a
 * DealerPass ID session from now on, so the reminder banner goes away (000 §4).
 */
export async function connectKarId(
  deps: {
    db: Database;
    companyEmailDomain: string;
    messageVars: IMessageVars;
    /** Linking checks a DealerPass ID password: after repeated failures it needs a captcha. */
    captcha?: CaptchaVerifier;
    /** Where failures are counted (R13): shared through Redis when the server has it. */
    failures?: FailureBudgetStore;
  },
  input: {
    userId: string;
    sessionIdHash: string;
    request: TConnectKarIdRequest;
    now: Date;
    /** The client's address, for the captcha's check. */
    remoteIp: string;
  },
): Promise<UserRow> {
  const { db } = deps;
  const { request, now } = input;
  refuseIfBlockedOrConnected(await getUserRow(db, input.userId), deps.messageVars);

  // Checked outside the transaction so a wrong password's failure record is kept.
  let linkedIdentityId: string | null = null;
  if (request.mode === 'link') {
    const result = await authenticateWithEmail(db, {
      email: request.email,
      password: request.password,
      now,
      ...(deps.captcha
        ? {
            captcha: {
              verifier: deps.captcha,
              remoteIp: input.remoteIp,
              token: request.recaptcha,
            } satisfies ISignInCaptcha,
          }
        : {}),
      ...(deps.failures ? { failures: deps.failures } : {}),
    });
    if (!result.ok) throw signInRefusal(result.reason);
    linkedIdentityId = result.identityId;
  } else {
    refuseCompanyEmail(request.email, deps);
  }

  return db.transaction(async (tx) => {
    const [user] = await tx
      .select()
      .from(users)
      .where(eq(users.id, input.userId))
      .limit(1)
      .for('update');
    if (!user) throw new AppError(ERROR_CODES.UNAUTHORIZED);
    refuseIfBlockedOrConnected(user, deps.messageVars);

    let identityId: string;
    if (linkedIdentityId) {
      const [owner] = await tx
        .select({ id: users.id })
        .from(users)
        .where(eq(users.karId, linkedIdentityId))
        .limit(1);
      if (owner) throw emailInUse();
      identityId = linkedIdentityId;
    } else if (request.mode === 'create') {
      ({ id: identityId } = await createIdentity(tx, {
        email: request.email,
        password: request.password,
        now,
      }));
    } else {
      throw new Error('unreachable: link without an identity');
    }

    const [updated] = await tx
      .update(users)
      .set({ karId: identityId, updatedAt: now })
      .where(and(eq(users.id, input.userId), isNull(users.karId)))
      .returning(USER_ROW_FIELDS);
    if (!updated) throw alreadyConnected();
    await tx
      .update(sessions)
      .set({ viaKarId: true })
      .where(and(eq(sessions.idHash, input.sessionIdHash), eq(sessions.userId, input.userId)));
    return updated;
  });
}

function refuseIfBlockedOrConnected(user: typeof users.$inferSelect, vars: IMessageVars): void {
  if (accountFlags(user).blocked) {
    throw new AppError(ERROR_CODES.ACCOUNT_BLOCKED, {
      message: errorMessage(ERROR_CODES.ACCOUNT_BLOCKED, vars),
    });
  }
  if (user.karId) throw alreadyConnected();
}

/** 001 §8 (R1): the account is already tied to a DealerPass ID. */
function alreadyConnected(): AppError {
  return new AppError(ERROR_CODES.MIGRATED_ACCOUNT_EXISTS);
}

function emailInUse(): AppError {
  const message = errorMessage(ERROR_CODES.EMAIL_IN_USE);
  return new AppError(ERROR_CODES.EMAIL_IN_USE, {
    message,
    errors: [{ source: 'email', message }],
  });
}
