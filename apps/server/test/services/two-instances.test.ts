import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts';
import type { TestApp } from '../support/helper.ts';
import { createAccount, TestBrowserSession, TEST_PASSWORD } from '../factories/sign-in.ts';

/**
 * Issue 4: the provider's state and keys live in the database, so a second instance (or a
 * restarted one) continues any sign-in and honours any session. Two apps share one database and
 * one secret; every request of the browser goes to the other app than the one before.
 */
describe('two server instances, one database', () => {
  let database: DatabaseHandle;
  let first: FastifyInstance;
  let second: FastifyInstance;
  let requests = 0;
  let alternating: TestApp;

  beforeAll(async () => {
    database = await openDatabase({ dataDir: null });
    const secret = randomBytes(32);
    const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent' });
    // Closing an app closes the database: only the last one may do that.
    const shared = { ...database, close: async () => {} };
    first = await buildApp({
      config,
      database: shared,
      secret,
      webRoot: null,
      backgroundIntervalMs: 0,
    });
    second = await buildApp({
      config,
      database: shared,
      secret,
      webRoot: null,
      backgroundIntervalMs: 0,
    });
    await Promise.all([first.ready(), second.ready()]);
    alternating = {
      get app() {
        requests += 1;
        return requests % 2 === 0 ? first : second;
      },
    } as unknown as TestApp;
    await createAccount({ app: first } as unknown as TestApp, { email: 'twice@example.com' });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await database.close();
  });

  it('share one signing key', async () => {
    const keysOf = async (app: FastifyInstance) =>
      (await app.inject({ method: 'GET', url: '/oidc/jwks' })).json().keys;
    expect(await keysOf(first)).toEqual(await keysOf(second));
  });

  it('complete a sign-in started on the other, and honour each other’s sessions and sign-outs', async () => {
    const browser = new TestBrowserSession(alternating);
    const { landed } = await browser.signIn({
      method: 'email',
      email: 'twice@example.com',
      password: TEST_PASSWORD,
    });
    expect(landed).toBe('/account');
    expect(requests).toBeGreaterThan(6); // the flow really did cross between the two

    const cookie = browser.jar.header('/api/users/current');
    for (const app of [first, second]) {
      const current = await app.inject({
        method: 'GET',
        url: '/api/users/current',
        headers: { cookie },
      });
      expect(current.statusCode).toBe(200);
      expect(current.json().data.email).toBe('twice@example.com');
    }
    const logout = await browser.send('POST', '/api/auth/logout');
    expect(logout.statusCode).toBe(200);
    for (const app of [first, second]) {
      const after = await app.inject({
        method: 'GET',
        url: '/api/users/current',
        headers: { cookie },
      });
      expect(after.statusCode).toBe(403);
    }
  });
});
