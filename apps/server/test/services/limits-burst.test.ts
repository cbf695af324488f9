import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { staffUsers } from '../../src/db/schema.ts';
import type * as TotpModule from '../../src/lib/totp.ts';
import { hotp, newTotpSecret, totpCode, totpStep } from '../../src/lib/totp.ts';
import { STAFF_SESSION_COOKIE } from '../../src/plugins/staff-session.ts';
import { seedDemoPromotions } from '../../src/services/demo/seed-demo-promotions.ts';
import {
  SIGN_IN_FAILURE_BUDGET,
  TOTP_FAILURE_BUDGET,
} from '../../src/services/limits/failure-budgets.ts';
import { sealTotpSecret } from '../../src/services/admin/staff/second-factor.ts';
import { createStaffSession } from '../../src/services/admin/staff/staff-session-store.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { createAccount, TEST_PASSWORD, TestBrowserSession } from '../factories/sign-in.ts';
import { signupBody } from '../factories/signup-body.ts';
import { createStaffUser, STAFF_TEST_PASSWORD } from '../factories/staff-sign-in.ts';

/**
 * Issue 24, item 1: a limit is taken before its check (docs/decisions/029). Each test fires N
 * requests at once at one limit and counts what got through: never more than the limit, and once
 * it is reached the right password or code is refused as the rules say. The file runs on the
 * database the environment selects (PGlite, or PostgreSQL with TEST_DATABASE_URL), and the
 * failure budgets once more on Redis when TEST_REDIS_URL is set.
 */

/**
 * How many TOTP codes the server really compared: the real check, watched. An answer alone cannot
 * tell a code refused before the check from one compared and then refused.
 */
const totpChecks = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/lib/totp.ts', async (importOriginal) => {
  const real = await importOriginal<typeof TotpModule>();
  return {
    ...real,
    verifyTotp: (...args: Parameters<typeof real.verifyTotp>) => {
      totpChecks.count += 1;
      return real.verifyTotp(...args);
    },
  };
});

let nextAddress = 1;
/** Each browser from its own address: the per-address rate limits must not decide these tests. */
const freshIp = () => `10.24.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

/** The app as seen from one client address (light-my-request's `remoteAddress`). */
function fromAddress(t: TestApp, address: string): TestApp {
  const app = new Proxy(t.app, {
    get(target, property, receiver) {
      if (property === 'inject')
        return (options: InjectOptions) => target.inject({ ...options, remoteAddress: address });
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return { ...t, app };
}

/** A browser at the provider's sign-in page of `start` (the dealers' or the console's). */
async function atSignInPage(t: TestApp, start: '/login' | '/admin/login') {
  const browser = new TestBrowserSession(fromAddress(t, freshIp()));
  await browser.open();
  const { url } = await browser.follow(start);
  const uid = /^\/oidc\/interaction\/([\w-]+)$/.exec(url)?.[1];
  if (!uid) throw new Error(`expected the sign-in page, got ${url}`);
  await browser.get(url);
  return { browser, uid };
}

function codesOf(responses: { statusCode: number; body: string }[]): Record<string, number> {
  const tally: Record<string, number> = {};
  for (const response of responses) {
    let code = String(response.statusCode);
    try {
      const body = JSON.parse(response.body) as { code?: string };
      if (body.code) code = `${response.statusCode} ${body.code}`;
    } catch {
      // not JSON: the status alone
    }
    tally[code] = (tally[code] ?? 0) + 1;
  }
  return tally;
}

const redisUrl = process.env.TEST_REDIS_URL;
const stores = [
  { name: 'failures counted in the database', env: {} as Record<string, string> },
  ...(redisUrl
    ? [
        {
          name: `failures counted in Redis too (${redisUrl})`,
          env: {
            REDIS_URL: redisUrl,
            REDIS_KEY_PREFIX: `dp-limits-${randomBytes(6).toString('hex')}:`,
          } as Record<string, string>,
        },
      ]
    : []),
];

describe.each(stores)('limits under a burst: $name', ({ env }) => {
  let t: TestApp;
  const now = new Date();
  beforeAll(async () => {
    t = await buildTestApp({ now: () => now, env: { LOG_LEVEL: 'warn', ...env } });
  });
  afterAll(async () => {
    await t.close();
    if (env.REDIS_URL && env.REDIS_KEY_PREFIX) {
      const redis = new Redis(env.REDIS_URL);
      const keys = await redis.keys(`${env.REDIS_KEY_PREFIX}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });

  it('dealer sign-in: 30 wrong passwords at once get at most the budget of "invalid" answers, then the right one needs a captcha', async () => {
    const email = `burst.${randomBytes(3).toString('hex')}@example.com`;
    await createAccount(t, { email });
    const pages = [];
    for (let i = 0; i < 30; i++) pages.push(await atSignInPage(t, '/login'));
    const answers = await Promise.all(
      pages.map(({ browser, uid }) =>
        browser.send('POST', `/oidc/interaction/${uid}/login`, {
          method: 'email',
          email,
          password: 'Wrong!Passw0rd',
        }),
      ),
    );
    const tally = codesOf(answers);
    expect(Object.keys(tally).sort()).toEqual(
      ['400 INVALID_CREDENTIALS', '400 SIGN_IN_CAPTCHA_REQUIRED'].sort(),
    );
    expect(tally['400 INVALID_CREDENTIALS']).toBeLessThanOrEqual(SIGN_IN_FAILURE_BUDGET.limit);

    const { browser, uid } = await atSignInPage(t, '/login');
    const right = await browser.send('POST', `/oidc/interaction/${uid}/login`, {
      method: 'email',
      email,
      password: TEST_PASSWORD,
    });
    expect(right.statusCode).toBe(400);
    expect(right.json().code).toBe('SIGN_IN_CAPTCHA_REQUIRED');
  });

  it('dealer sign-in: one solved captcha sent with 10 attempts at once lets one through', async () => {
    const email = `burst.captcha.${randomBytes(3).toString('hex')}@example.com`;
    await createAccount(t, { email });
    for (let i = 0; i < SIGN_IN_FAILURE_BUDGET.limit; i++) {
      const { browser, uid } = await atSignInPage(t, '/login');
      const wrong = await browser.send('POST', `/oidc/interaction/${uid}/login`, {
        method: 'email',
        email,
        password: 'Wrong!Passw0rd',
      });
      expect(wrong.json().code).toBe('INVALID_CREDENTIALS');
    }
    const recaptcha = await t.solveCaptcha();
    const pages = [];
    for (let i = 0; i < 10; i++) pages.push(await atSignInPage(t, '/login'));
    const answers = await Promise.all(
      pages.map(({ browser, uid }) =>
        browser.send('POST', `/oidc/interaction/${uid}/login`, {
          method: 'email',
          email,
          password: 'Wrong!Passw0rd',
          recaptcha,
        }),
      ),
    );
    // The one that spent the captcha reached the password (wrong); the others did not.
    expect(codesOf(answers)).toEqual({
      '400 INVALID_CREDENTIALS': 1,
      '400 SIGN_IN_CAPTCHA_REQUIRED': 9,
    });
  });

  it('staff sign-in: 30 wrong passwords at once get at most the budget of "invalid" answers, then the right one needs a captcha', async () => {
    const email = `burst.${randomBytes(3).toString('hex')}@staff.test`;
    await createStaffUser(t, { role: 'support', email });
    const pages = [];
    for (let i = 0; i < 30; i++) pages.push(await atSignInPage(t, '/admin/login'));
    const answers = await Promise.all(
      pages.map(({ browser, uid }) =>
        browser.send('POST', `/oidc/interaction/${uid}/staff-login`, {
          email,
          password: 'Wrong!Passw0rd',
        }),
      ),
    );
    const tally = codesOf(answers);
    expect(Object.keys(tally).sort()).toEqual(
      ['400 INVALID_CREDENTIALS', '400 SIGN_IN_CAPTCHA_REQUIRED'].sort(),
    );
    expect(tally['400 INVALID_CREDENTIALS']).toBeLessThanOrEqual(SIGN_IN_FAILURE_BUDGET.limit);

    const { browser, uid } = await atSignInPage(t, '/admin/login');
    const right = await browser.send('POST', `/oidc/interaction/${uid}/staff-login`, {
      email,
      password: STAFF_TEST_PASSWORD,
    });
    expect(right.statusCode).toBe(400);
    expect(right.json().code).toBe('SIGN_IN_CAPTCHA_REQUIRED');
  });

  it('a route’s rate limit: 60 requests at once from one address, 30 answered', async () => {
    const address = freshIp();
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        t.app.inject({
          method: 'GET',
          url: `/api/users/userIdTaken/burst${i}%40example.com`,
          remoteAddress: address,
        }),
      ),
    );
    // GET /api/users/userIdTaken/:email allows 30 a minute per client address.
    expect(codesOf(answers)).toEqual({ '200': 30, '429 RATE_LIMITED': 30 });
  });

  it('staff second factor: 200 wrong codes at once from 20 pending sessions get at most the budget of "invalid" answers, then the right code is refused', async () => {
    const staff = await createStaffUser(t, { role: 'admin' });
    const secret = newTotpSecret();
    await t.app.db
      .update(staffUsers)
      .set({
        totpSecretEnc: sealTotpSecret(t.app.keys.encryption, staff.id, secret),
        totpEnrolledAt: now,
      })
      .where(eq(staffUsers.id, staff.id));
    // A wrong code that is none of the three steps the check accepts.
    const accepted = [-1, 0, 1].map((d) => hotp(secret, totpStep(now) + d));
    let wrong = 0;
    while (accepted.includes(String(wrong).padStart(6, '0'))) wrong += 1;
    const wrongCode = String(wrong).padStart(6, '0');

    const pendingSession = async () => {
      const rawId = await createStaffSession(t.app.db, {
        staffId: staff.id,
        tokens: {},
        now,
        encryptionKey: t.app.keys.encryption,
      });
      const browser = await t.browser();
      return (code: string) =>
        browser.request({
          method: 'POST',
          url: '/api/admin/session/verify',
          headers: { cookie: `${browser.cookie}; ${STAFF_SESSION_COOKIE}=${rawId}` },
          payload: { code },
          remoteAddress: freshIp(),
        });
    };
    const sessions = [];
    for (let i = 0; i < 20; i++) sessions.push(await pendingSession());
    totpChecks.count = 0;
    const answers = await Promise.all(
      sessions.flatMap((send) => Array.from({ length: 10 }, () => send(wrongCode))),
    );
    const invalid = answers.filter((r) => r.statusCode === 400).length;
    // Every code compared was a guess: no more than the budget of them.
    expect(totpChecks.count).toBeLessThanOrEqual(TOTP_FAILURE_BUDGET.limit);
    // The session that meets the limit ends: its wrong code answers 401, never "invalid".
    expect(invalid).toBeLessThanOrEqual(TOTP_FAILURE_BUDGET.limit - 1);
    expect(answers.every((r) => r.statusCode === 400 || r.statusCode === 401)).toBe(true);

    const send = await pendingSession();
    const right = await send(totpCode(secret, now));
    expect(right.statusCode).toBe(401);
  });
});

describe('other limits under a burst', () => {
  let t: TestApp;
  const now = new Date();
  beforeAll(async () => {
    t = await buildTestApp({ now: () => now, env: { LOG_LEVEL: 'warn' } });
    await seedDemoPromotions(t.app.db, now);
  });
  afterAll(() => t.close());

  it('a single-use promotion code: 8 sign-ups at once, one redeems it', async () => {
    const browser = await t.browser();
    const bodies = [];
    for (let i = 0; i < 8; i++) {
      bodies.push({
        ...signupBody(`limited.burst${i}@example.com`, { promoCode: 'LIMITED1' }),
        recaptcha: await t.solveCaptcha(),
      });
    }
    const answers = await Promise.all(
      bodies.map((payload) =>
        browser.request({
          method: 'POST',
          url: '/api/v2/signup',
          payload,
          remoteAddress: freshIp(),
        }),
      ),
    );
    expect(codesOf(answers)).toEqual({ '201': 1, '429 PROMO_RETRIES_EXCEEDED': 7 });
  });

  it('a solved captcha: 10 contact messages at once with it, one is taken', async () => {
    const browser = await t.browser();
    const recaptcha = await t.solveCaptcha();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        browser.request({
          method: 'POST',
          url: '/api/v2/contactUs',
          payload: {
            fullName: 'Dana Dealer',
            email: 'dana@example.com',
            phoneCountry: 'United States',
            phoneNumber: '3135550142',
            queryType: 'Sales',
            auctionAccessNumber: '100123456',
            comments: 'Ten at once with one captcha.',
            source: 'Web',
            recaptcha,
          },
          remoteAddress: freshIp(),
        }),
      ),
    );
    expect(codesOf(answers)).toEqual({ '201': 1, '400 CAPTCHA_FAILED': 9 });
  });
});
