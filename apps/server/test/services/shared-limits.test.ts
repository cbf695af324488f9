import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAPTCHA_AFTER_FAILURES,
  emailAccountKey,
} from '../../src/services/identity/sign-in-failures.ts';
import {
  databaseFailureBudgets,
  redisFailureBudgets,
  sharedFailureBudgets,
} from '../../src/services/limits/failure-budget-stores.ts';
import {
  SIGN_IN_FAILURE_BUDGET,
  takeFromFailureBudget,
} from '../../src/services/limits/failure-budgets.ts';
import { attemptsTaken } from '../factories/failure-budget-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { createAccount, TestBrowserSession, TEST_PASSWORD } from '../factories/sign-in.ts';

/**
 * R13: with REDIS_URL, rate limits and sign-in failures are counted once for all instances. Two
 * instances, each with a database of its OWN (so only Redis can carry a count from one to the
 * other), one Redis under a key prefix of this run's own, deleted at the end.
 *
 * Needs a Redis: TEST_REDIS_URL (CI sets it where Redis answers on 127.0.0.1:6379, as it sets
 * TEST_DATABASE_URL for PostgreSQL). Without it these tests are reported as skipped, by name.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const title = redisUrl
  ? `two instances sharing one Redis (${redisUrl})`
  : 'two instances sharing one Redis: NOT RUN, TEST_REDIS_URL is not set (CI sets it where Redis answers)';

describe.runIf(redisUrl)(title, () => {
  const prefix = `dp-test-${randomBytes(6).toString('hex')}:`;
  let redis: Redis;
  let first: TestApp;
  let second: TestApp;
  // Without Redis: the same two instances count on their own (the control).
  let alone: TestApp[] = [];

  beforeAll(async () => {
    redis = new Redis(redisUrl!, {
      lazyConnect: true,
      connectTimeout: 2_000,
      maxRetriesPerRequest: 1,
    });
    try {
      await redis.connect();
      await redis.ping();
    } catch (error) {
      throw new Error(
        `TEST_REDIS_URL is set but Redis at ${redisUrl} does not answer: ${(error as Error).message}`,
      );
    }
    const env = { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: prefix, LOG_LEVEL: 'warn' };
    [first, second] = await Promise.all([buildTestApp({ env }), buildTestApp({ env })]);
    alone = await Promise.all([buildTestApp(), buildTestApp()]);
  });
  afterAll(async () => {
    await Promise.all([first, second, ...alone].map((t) => t?.close()));
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  /** Alternates requests between two instances until one answers 429; returns how many passed. */
  async function budget(apps: TestApp[], limit: number): Promise<number> {
    for (let i = 0; i < limit * apps.length + 1; i++) {
      const response = await apps[i % apps.length]!.app.inject({
        method: 'GET',
        url: `/api/users/userIdTaken/${i}%40example.com`,
      });
      if (response.statusCode === 429) return i;
      expect(response.statusCode).toBe(200);
    }
    return limit * apps.length + 1;
  }

  it('a route’s rate limit is one budget across the instances', async () => {
    // GET /api/users/userIdTaken/:email allows 30 a minute per client address.
    expect(await budget([first, second], 30)).toBe(30);
    expect(await redis.keys(`${prefix}rate-limit:*`)).not.toEqual([]);
    // The control: each instance on its own grants the whole budget again.
    expect(await budget(alone, 30)).toBe(60);
  });

  it('failed sign-ins at one instance make the other ask for a captcha', async () => {
    const email = `shared.failures.${randomBytes(3).toString('hex')}@example.com`;
    for (const t of [first, second, ...alone]) await createAccount(t, { email });
    const attempt = async (t: TestApp, password: string) =>
      (await new TestBrowserSession(t).signIn({ method: 'email', email, password })).login;

    for (let i = 0; i < CAPTCHA_AFTER_FAILURES; i++) {
      const refused = await attempt(i % 2 === 0 ? first : second, 'not-the-password');
      expect(refused.json()).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    }
    for (const t of [first, second]) {
      const refused = await attempt(t, TEST_PASSWORD);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'SIGN_IN_CAPTCHA_REQUIRED' });
    }
    // Each database holds the attempts its own instance took (docs/decisions/029: the database
    // is written too); only Redis held them all.
    const inDatabases = await Promise.all(
      [first, second].map((t) => attemptsTaken(t, emailAccountKey(email))),
    );
    expect(inDatabases).toEqual([4, 3]);

    // The control: without Redis, three failures here and two there ask for no captcha.
    for (let i = 0; i < CAPTCHA_AFTER_FAILURES; i++) {
      await attempt(alone[i % 2]!, 'not-the-password');
    }
    for (const t of alone) expect((await attempt(t, TEST_PASSWORD)).statusCode).toBe(200);
  });
});

describe('failed sign-ins when Redis stops answering (no Redis needed)', () => {
  let t: TestApp;
  let unreachable: Redis;
  beforeAll(async () => {
    t = await buildTestApp();
    // A client that never connected and queues nothing: every command fails at once.
    unreachable = new Redis({
      host: '127.0.0.1',
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
  });
  afterAll(async () => {
    unreachable.disconnect();
    await t.close();
  });

  it('are taken from the database alone, the captcha rule intact, each error reported', async () => {
    const errors: unknown[] = [];
    const store = sharedFailureBudgets(
      databaseFailureBudgets(t.app.db),
      redisFailureBudgets(unreachable, 'dp-test:'),
      (error) => errors.push(error),
    );
    const key = emailAccountKey('outage@example.com');
    const now = new Date();
    for (let i = 1; i <= CAPTCHA_AFTER_FAILURES + 1; i++) {
      const attempt = await takeFromFailureBudget(store, SIGN_IN_FAILURE_BUDGET, key, now);
      expect(attempt).toEqual({
        taken: i,
        within: i <= CAPTCHA_AFTER_FAILURES,
        last: i >= CAPTCHA_AFTER_FAILURES,
      });
    }
    expect(await attemptsTaken(t, key)).toBe(CAPTCHA_AFTER_FAILURES + 1);
    expect(errors).toHaveLength(CAPTCHA_AFTER_FAILURES + 1);
    await store.clear(key);
    expect(await attemptsTaken(t, key)).toBe(0);
    expect((await takeFromFailureBudget(store, SIGN_IN_FAILURE_BUDGET, key, now)).taken).toBe(1);
  });
});
