import { randomUUID } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Database, Transaction } from '../../db/client.ts';
import { failureBudgets } from '../../db/schema.ts';
import { FAILURE_BUDGET_KEPT, type FailureBudgetStore } from './failure-budgets.ts';

/**
 * The database's budgets, the system of record (R13, docs/decisions/029): one row per key, and
 * one statement that appends this attempt to the instants still inside the window and answers
 * their number. `ON CONFLICT DO UPDATE` locks the key's row, so parallel takes queue on it and
 * each sees the others' attempts: N takes answer 1..N, on PostgreSQL as on PGlite.
 */
export function databaseFailureBudgets(db: Database | Transaction): FailureBudgetStore {
  return {
    async take(key, now, windowMs) {
      const at = now.toISOString();
      const since = new Date(now.getTime() - windowMs).toISOString();
      const expires = new Date(now.getTime() + windowMs);
      const [row] = await db
        .insert(failureBudgets)
        .values({ budgetKey: key, takenAt: sql`array[${at}::timestamptz]`, expiresAt: expires })
        .onConflictDoUpdate({
          target: failureBudgets.budgetKey,
          set: {
            // The newest instants still in the window (at most KEPT - 1), then this one.
            takenAt: sql`array_append(coalesce((
              select array_agg(kept.t order by kept.t) from (
                select t from unnest(${failureBudgets.takenAt}) as t
                where t > ${since}::timestamptz order by t desc limit ${FAILURE_BUDGET_KEPT - 1}
              ) as kept), '{}'::timestamptz[]), ${at}::timestamptz)`,
            expiresAt: sql`greatest(${failureBudgets.expiresAt}, excluded.expires_at)`,
          },
        })
        .returning({ taken: sql<number>`cardinality(${failureBudgets.takenAt})` });
      return Number(row?.taken ?? 0);
    },
    async clear(key) {
      await db.delete(failureBudgets).where(eq(failureBudgets.budgetKey, key));
    },
  };
}

/** Budgets whose newest attempt has left its window are spent no more; the purge drops them. */
export async function purgeExpiredFailureBudgets(db: Database, now: Date): Promise<void> {
  await db.delete(failureBudgets).where(lt(failureBudgets.expiresAt, now));
}

/**
 * The same take in Redis, in one script (so atomic): a sorted set per key scored by time, this
 * attempt added, the set trimmed to the window and to the newest KEPT, its expiry moved to the
 * window's end, its size answered.
 */
const TAKE_SCRIPT = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZADD', key, now, ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
redis.call('ZREMRANGEBYRANK', key, 0, -(tonumber(ARGV[4]) + 1))
redis.call('PEXPIRE', key, window)
return redis.call('ZCARD', key)
`;

export function redisFailureBudgets(redis: Redis, prefix: string): FailureBudgetStore {
  const keyOf = (key: string) => `${prefix}failure-budget:${key}`;
  return {
    async take(key, now, windowMs) {
      const taken = await redis.eval(
        TAKE_SCRIPT,
        1,
        keyOf(key),
        now.getTime(),
        windowMs,
        `${now.getTime()}:${randomUUID()}`,
        FAILURE_BUDGET_KEPT,
      );
      return Number(taken);
    },
    async clear(key) {
      await redis.del(keyOf(key));
    },
  };
}

/**
 * With REDIS_URL (R13): every attempt is taken from both stores and the larger count decides
 * (docs/decisions/029, issue 24 item 7). The database holds every attempt, so a Redis that stops,
 * or restarts empty, loses nothing; Redis carries the count between instances that do not share
 * a database's rows at the same instant. Each store's take is atomic, and an attempt is within
 * the limit only when it is within it in both, so N parallel takes still let at most `limit`
 * through. A Redis error is reported and the database's count stands alone.
 */
export function sharedFailureBudgets(
  database: FailureBudgetStore,
  redis: FailureBudgetStore,
  onRedisError: (error: unknown) => void,
): FailureBudgetStore {
  const orNothing = <T>(work: Promise<T>): Promise<T | null> =>
    work.catch((error: unknown) => {
      onRedisError(error);
      return null;
    });
  return {
    async take(key, now, windowMs) {
      const [inDatabase, inRedis] = await Promise.all([
        database.take(key, now, windowMs),
        orNothing(redis.take(key, now, windowMs)),
      ]);
      return Math.max(inDatabase, inRedis ?? 0);
    },
    async clear(key) {
      await Promise.all([database.clear(key), orNothing(redis.clear(key))]);
    },
  };
}
