import { randomUUID } from 'node:crypto';
import { and, count, eq, gt, lt } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Database, Transaction } from '../../db/client.ts';
import { signInFailures } from '../../db/schema.ts';

/**
 * After this many failed sign-ins for one account within the window, every further attempt must
 * carry a solved captcha (docs/decisions/016). The account is never locked: a lock would let
 * anyone who knows an e-mail address keep its owner out.
 */
export const CAPTCHA_AFTER_FAILURES = 5;
export const SIGN_IN_FAILURE_WINDOW_MS = 60 * 60 * 1000;

/**
 * The key failures are counted under. It is built from what the person typed, not from a row,
 * so an unknown e-mail locks exactly like a known one and the lock does not reveal existence.
 */
export function emailAccountKey(email: string): string {
  return `email:${email.trim().toLowerCase()}`;
}

export function legacyAccountKey(username: string): string {
  return `legacy:${username.trim().toLowerCase()}`;
}

export async function needsSignInCaptcha(
  db: Database | Transaction,
  accountKey: string,
  now: Date,
): Promise<boolean> {
  const since = new Date(now.getTime() - SIGN_IN_FAILURE_WINDOW_MS);
  const [row] = await db
    .select({ n: count() })
    .from(signInFailures)
    .where(and(eq(signInFailures.accountKey, accountKey), gt(signInFailures.at, since)));
  return (row?.n ?? 0) >= CAPTCHA_AFTER_FAILURES;
}

export async function recordSignInFailure(
  db: Database | Transaction,
  accountKey: string,
  now: Date,
): Promise<void> {
  await db.insert(signInFailures).values({ accountKey, at: now });
}

/** A password set from an e-mailed link proves control of the account: its lock is lifted. */
export async function clearSignInFailures(
  db: Database | Transaction,
  accountKey: string,
): Promise<void> {
  await db.delete(signInFailures).where(eq(signInFailures.accountKey, accountKey));
}

/** Failures older than the window no longer count; a background job may drop them. */
export async function purgeOldSignInFailures(db: Database, now: Date): Promise<void> {
  const before = new Date(now.getTime() - SIGN_IN_FAILURE_WINDOW_MS);
  await db.delete(signInFailures).where(lt(signInFailures.at, before));
}

/**
 * Where failed sign-ins are counted (R13): the database by default, Redis when REDIS_URL is set,
 * so every instance sees the same count. The window and the threshold are the same in both.
 */
export interface SignInFailureStore {
  needsCaptcha(accountKey: string, now: Date): Promise<boolean>;
  record(accountKey: string, now: Date): Promise<void>;
  clear(accountKey: string): Promise<void>;
}

export function databaseSignInFailures(db: Database | Transaction): SignInFailureStore {
  return {
    needsCaptcha: (accountKey, now) => needsSignInCaptcha(db, accountKey, now),
    record: (accountKey, now) => recordSignInFailure(db, accountKey, now),
    clear: (accountKey) => clearSignInFailures(db, accountKey),
  };
}

/**
 * Records one failure and answers how many fall in the window, atomically: a sorted set per
 * account key scored by time, trimmed to the window, expiring with its newest failure.
 */
const RECORD_FAILURE = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZADD', key, now, ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
redis.call('PEXPIRE', key, window)
return redis.call('ZCARD', key)
`;

/**
 * The same rule as the database's table, in Redis: a sliding one-hour window per account key.
 * When Redis does not answer, the failure is counted in `fallback` (the database) and the error
 * reported: signing in keeps working, and keeps its captcha rule, through a Redis outage.
 */
export function redisSignInFailures(
  redis: Redis,
  prefix: string,
  fallback: SignInFailureStore,
  onError: (error: unknown) => void,
): SignInFailureStore {
  const keyOf = (accountKey: string) => `${prefix}sign-in-failures:${accountKey}`;
  async function orFallback<T>(work: () => Promise<T>, instead: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      onError(error);
      return instead();
    }
  }
  return {
    needsCaptcha: (accountKey, now) =>
      orFallback(
        async () => {
          const since = now.getTime() - SIGN_IN_FAILURE_WINDOW_MS;
          const n = await redis.zcount(keyOf(accountKey), `(${since}`, '+inf');
          return n >= CAPTCHA_AFTER_FAILURES;
        },
        () => fallback.needsCaptcha(accountKey, now),
      ),
    record: (accountKey, now) =>
      orFallback(
        async () => {
          const member = `${now.getTime()}:${randomUUID()}`;
          await redis.eval(
            RECORD_FAILURE,
            1,
            keyOf(accountKey),
            now.getTime(),
            SIGN_IN_FAILURE_WINDOW_MS,
            member,
          );
        },
        () => fallback.record(accountKey, now),
      ),
    // Both: failures counted in the database during an outage are lifted too.
    clear: async (accountKey) => {
      await Promise.all([
        orFallback(
          async () => void (await redis.del(keyOf(accountKey))),
          async () => {},
        ),
        fallback.clear(accountKey),
      ]);
    },
  };
}
