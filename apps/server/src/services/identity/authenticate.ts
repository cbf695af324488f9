import { eq, sql } from 'drizzle-orm';
import type { CaptchaVerifier } from '../../adapters/captcha/captcha-verifier.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { identities, users } from '../../db/schema.ts';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import { AppError } from '../../errors/app-error.ts';
import { normalizeIdentityEmail } from './create-identity.ts';
import { verifyDummyPassword, verifyPassword } from './passwords.ts';
import { redeemCaptcha } from '../captcha/redeem-captcha.ts';
import { databaseFailureBudgets } from '../limits/failure-budget-stores.ts';
import {
  SIGN_IN_FAILURE_BUDGET,
  takeFromFailureBudget,
  type FailureBudgetStore,
} from '../limits/failure-budgets.ts';
import { emailAccountKey, legacyAccountKey } from './sign-in-failures.ts';

export type TEmailSignInResult =
  { ok: true; identityId: string; email: string } | { ok: false; reason: 'invalid' | 'captcha' };

export type TLegacySignInResult =
  { ok: true; userId: string } | { ok: false; reason: 'invalid' | 'captcha' | 'migrated' };

/** The captcha an attempt carries, for accounts with repeated failures (docs/decisions/016). */
export interface ISignInCaptcha {
  verifier: CaptchaVerifier;
  token: string | undefined;
  remoteIp: string;
}

/**
 * Takes the attempt from the account's sign-in budget (docs/decisions/029: before the password is
 * looked at, so parallel guesses cannot all pass), then answers whether it may go on to the
 * password: always within the budget; over it only with a solved captcha, spent here once. The
 * attempt stays taken unless the password then proves the owner (the caller clears the budget).
 */
export async function passesChallenge(
  db: Database | Transaction,
  failures: FailureBudgetStore,
  accountKey: string,
  now: Date,
  captcha: ISignInCaptcha | undefined,
): Promise<boolean> {
  const attempt = await takeFromFailureBudget(failures, SIGN_IN_FAILURE_BUDGET, accountKey, now);
  if (attempt.within) return true;
  if (!captcha?.token) return false;
  const token = captcha.token;
  try {
    await db.transaction((tx) => redeemCaptcha(tx, captcha.verifier, token, captcha.remoteIp));
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === ERROR_CODES.CAPTCHA_FAILED) return false;
    throw error;
  }
}

/**
 * A DealerPass ID sign-in (docs/decisions/009): e-mail (any case) and password. An unknown
 * e-mail, an account without a password yet and a wrong password all answer 'invalid' after
 * the same Argon2id work, and each counts as a failure; after CAPTCHA_AFTER_FAILURES of them
 * within an hour, an attempt without a solved captcha answers 'captcha' before the password is
 * looked at (docs/decisions/016), the same for a known and an unknown e-mail.
 */
export async function authenticateWithEmail(
  db: Database | Transaction,
  input: {
    email: string;
    password: string;
    now: Date;
    captcha?: ISignInCaptcha;
    /** Where the budget is taken from: the database, and Redis too when configured (R13). */
    failures?: FailureBudgetStore;
  },
): Promise<TEmailSignInResult> {
  const email = normalizeIdentityEmail(input.email);
  const accountKey = emailAccountKey(email);
  const failures = input.failures ?? databaseFailureBudgets(db);
  if (!(await passesChallenge(db, failures, accountKey, input.now, input.captcha)))
    return { ok: false, reason: 'captcha' };

  const [identity] = await db
    .select({
      id: identities.id,
      email: identities.email,
      passwordHash: identities.passwordHash,
    })
    .from(identities)
    .where(eq(identities.email, email))
    .limit(1);
  const matches = identity?.passwordHash
    ? await verifyPassword(identity.passwordHash, input.password)
    : await verifyDummyPassword(input.password);
  // A wrong password keeps the attempt it took.
  if (!identity || !matches) return { ok: false, reason: 'invalid' };
  // The owner got in: earlier failures no longer make the next sign-in solve a captcha.
  await failures.clear(accountKey);
  return { ok: true, identityId: identity.id, email: identity.email };
}

/**
 * A migrated account's sign-in with its legacy username (any case) and password (DECISIONS R6).
 * Once that account has a DealerPass ID, the right legacy password answers 'migrated' (001 §8:
 * 'This username is associated with an existing migrated … ID'); a wrong one stays 'invalid', so
 * the answer tells nothing to someone without the password.
 */
export async function authenticateLegacy(
  db: Database | Transaction,
  input: {
    username: string;
    password: string;
    now: Date;
    captcha?: ISignInCaptcha;
    failures?: FailureBudgetStore;
  },
): Promise<TLegacySignInResult> {
  const username = input.username.trim().toLowerCase();
  const accountKey = legacyAccountKey(username);
  const failures = input.failures ?? databaseFailureBudgets(db);
  if (!(await passesChallenge(db, failures, accountKey, input.now, input.captcha)))
    return { ok: false, reason: 'captcha' };

  const [user] = username
    ? await db
        .select({
          id: users.id,
          karId: users.karId,
          legacyPasswordHash: users.legacyPasswordHash,
        })
        .from(users)
        .where(sql`lower(${users.legacyUsername}) = ${username}`)
        .limit(1)
    : [];
  const matches = user?.legacyPasswordHash
    ? await verifyPassword(user.legacyPasswordHash, input.password)
    : await verifyDummyPassword(input.password);
  if (!user || !matches) return { ok: false, reason: 'invalid' };
  // The right password, whatever the answer: the owner is there, the budget is given back.
  await failures.clear(accountKey);
  if (user.karId) return { ok: false, reason: 'migrated' };
  return { ok: true, userId: user.id };
}

/** The answer to a refused sign-in, the same at the provider's form and the DealerPass ID link. */
export function signInRefusal(reason: 'invalid' | 'captcha'): AppError {
  if (reason === 'captcha') {
    const message = errorMessage(ERROR_CODES.SIGN_IN_CAPTCHA_REQUIRED);
    return new AppError(ERROR_CODES.SIGN_IN_CAPTCHA_REQUIRED, {
      message,
      errors: [{ source: 'recaptcha', message }],
    });
  }
  const message = errorMessage(ERROR_CODES.INVALID_CREDENTIALS);
  return new AppError(ERROR_CODES.INVALID_CREDENTIALS, {
    message,
    errors: [{ source: 'password', message }],
  });
}
