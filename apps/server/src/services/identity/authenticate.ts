import { eq, sql } from 'drizzle-orm';
import type { CaptchaVerifier } from '../../adapters/captcha/captcha-verifier.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { identities, users } from '../../db/schema.ts';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import { AppError } from '../../errors/app-error.ts';
import { normalizeIdentityEmail } from './create-identity.ts';
import { verifyDummyPassword, verifyPassword } from './passwords.ts';
import { redeemCaptcha } from '../captcha/redeem-captcha.ts';
import {
  databaseSignInFailures,
  emailAccountKey,
  legacyAccountKey,
  type SignInFailureStore,
} from './sign-in-failures.ts';

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
 * Whether the attempt may go on to the password: always, until the account has had
 * CAPTCHA_AFTER_FAILURES failures within the hour; then only with a solved captcha, spent here.
 */
export async function passesChallenge(
  db: Database | Transaction,
  failures: SignInFailureStore,
  accountKey: string,
  now: Date,
  captcha: ISignInCaptcha | undefined,
): Promise<boolean> {
  if (!(await failures.needsCaptcha(accountKey, now))) return true;
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
    /** Where failures are counted: the database unless the server shares them in Redis (R13). */
    failures?: SignInFailureStore;
  },
): Promise<TEmailSignInResult> {
  const email = normalizeIdentityEmail(input.email);
  const accountKey = emailAccountKey(email);
  const failures = input.failures ?? databaseSignInFailures(db);
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
  if (!identity || !matches) {
    await failures.record(accountKey, input.now);
    return { ok: false, reason: 'invalid' };
  }
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
    failures?: SignInFailureStore;
  },
): Promise<TLegacySignInResult> {
  const username = input.username.trim().toLowerCase();
  const accountKey = legacyAccountKey(username);
  const failures = input.failures ?? databaseSignInFailures(db);
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
  if (!user || !matches) {
    await failures.record(accountKey, input.now);
    return { ok: false, reason: 'invalid' };
  }
  if (user.karId) return { ok: false, reason: 'migrated' };
  await failures.clear(accountKey);
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
