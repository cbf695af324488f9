import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { hashPassword } from '../../src/services/identity/passwords.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { createAccount, TestBrowserSession, TEST_PASSWORD } from '../factories/sign-in.ts';

describe('server-side sessions (DECISIONS R6)', () => {
  let t: TestApp;
  let offsetMs = 0;
  const minutes = (n: number) => n * 60 * 1000;

  beforeAll(async () => {
    t = await buildTestApp({
      now: () => new Date(Date.now() + offsetMs),
      routes: (app) =>
        app.get('/api/test/whoami', { config: { access: 'session' } }, async (request) => ({
          data: request.session,
        })),
    });
    await createAccount(t, { email: 'clock@example.com' });
    await createAccount(t, {
      email: 'legacy.owner@example.com',
      withIdentity: false,
      legacyUsername: 'old.timer',
      legacyPasswordHash: null,
    });
  });
  afterAll(() => t.close());

  async function signedIn() {
    offsetMs = 0;
    const browser = new TestBrowserSession(t);
    const { landed } = await browser.signIn({
      method: 'email',
      email: 'clock@example.com',
      password: TEST_PASSWORD,
    });
    expect(landed).toBe('/account');
    return browser;
  }

  it('sets the session cookie __Host-, HttpOnly, Secure, SameSite=Lax, path /', async () => {
    const browser = new TestBrowserSession(t);
    await browser.open();
    const { url } = await browser.follow('/login');
    const uid = url.split('/').pop()!;
    await browser.get(url);
    const login = await browser.send('POST', `/oidc/interaction/${uid}/login`, {
      method: 'email',
      email: 'clock@example.com',
      password: TEST_PASSWORD,
    });
    const next = new URL(login.json().data.redirectTo as string);
    let response = await browser.get(`${next.pathname}${next.search}`);
    while (!(response.headers['set-cookie'] ?? '').toString().includes(SESSION_COOKIE)) {
      const location = new URL(response.headers.location as string, 'http://localhost:3000');
      response = await browser.get(`${location.pathname}${location.search}`);
    }
    const header = ([] as string[])
      .concat(response.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith(SESSION_COOKIE))!;
    expect(header).toMatch(/; HttpOnly/i);
    expect(header).toMatch(/; Secure/i);
    expect(header).toMatch(/; SameSite=Lax/i);
    expect(header).toMatch(/; Path=\//i);
    expect(header).not.toMatch(/Domain=/i);
  });

  it('ends after 30 idle minutes, not while it is used', async () => {
    const browser = await signedIn();
    for (const at of [20, 40, 60]) {
      offsetMs = minutes(at); // used every 20 minutes: still alive an hour later
      expect((await browser.get('/api/test/whoami')).statusCode).toBe(200);
    }
    offsetMs = minutes(60 + 31);
    const idle = await browser.get('/api/test/whoami');
    expect(idle.statusCode).toBe(403);
    expect(idle.json()).toBe('invalidToken');
  });

  it('ends 12 hours after sign-in however busy it is', async () => {
    const browser = await signedIn();
    for (let at = 25; at < 12 * 60; at += 25) {
      offsetMs = minutes(at);
      expect((await browser.get('/api/test/whoami')).statusCode).toBe(200);
    }
    offsetMs = minutes(12 * 60 + 1);
    const late = await browser.get('/api/test/whoami');
    expect(late.statusCode).toBe(403);
    expect(late.json()).toBe('invalidToken');
  });

  it('lets a migrated account sign in with its legacy username, marked as not through a DealerPass ID', async () => {
    await t.app.db
      .update(users)
      .set({ legacyPasswordHash: await hashPassword('Legacy!Pass1') })
      .where(eq(users.legacyUsername, 'old.timer'));

    offsetMs = 0;
    const browser = new TestBrowserSession(t);
    const { landed } = await browser.signIn({
      method: 'legacy',
      username: 'Old.Timer',
      password: 'Legacy!Pass1',
    });
    expect(landed).toBe('/account');
    expect((await browser.get('/api/test/whoami')).json().data).toMatchObject({ viaKarId: false });
    expect((await browser.get('/api/auth/session')).json()).toEqual({
      data: { context: 'web', loggedInViaKarId: false },
    });

    const wrong = await new TestBrowserSession(t).signIn({
      method: 'legacy',
      username: 'old.timer',
      password: 'nope',
    });
    expect(wrong.login.statusCode).toBe(400);
  });
});
