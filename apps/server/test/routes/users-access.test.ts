import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { createAccount, sessionFor } from '../factories/sign-in.ts';

/**
 * Access to every /api/users/* route (issue 4): no session, an expired one, another user's, and a
 * blocked account. No route takes a user id, so a session can only ever reach its own record.
 */
describe('access control on /api/users/*', () => {
  let t: TestApp;
  let offsetMs = 0;
  const sessionOf: Record<'alice' | 'bob' | 'blocked', string> = {
    alice: '',
    bob: '',
    blocked: '',
  };
  let csrf: { cookie: string; token: string };

  const PROTECTED = [
    { method: 'GET', url: '/api/users/current' },
    {
      method: 'POST',
      url: '/api/users/current/karid',
      payload: { mode: 'link', email: 'nobody@example.com', password: 'Wrong!Pass1' },
    },
  ] as const;
  const PUBLIC = [
    { method: 'GET', url: '/api/users/userIdTaken/alice%40example.com' },
    { method: 'GET', url: '/api/users/alternateEmailTaken/alice%40example.com' },
  ] as const;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => new Date(Date.now() + offsetMs) });
    const alice = await createAccount(t, {
      email: 'alice@example.com',
      firstName: 'Alice',
      dealership: 'Alice Autos',
    });
    const bob = await createAccount(t, {
      email: 'bob@example.com',
      firstName: 'Bob',
      dealership: 'Bob Trucks',
    });
    const blocked = await createAccount(t, {
      email: 'blocked@example.com',
      accountStatus: 'blocked',
    });
    for (const [name, user] of [
      ['alice', alice.user],
      ['bob', bob.user],
      ['blocked', blocked.user],
    ] as const) {
      const rawId = await sessionFor(t, user.id);
      sessionOf[name] = rawId;
    }
    csrf = await t.browser();
  });
  afterAll(() => t.close());

  const call = (route: (typeof PROTECTED)[number] | (typeof PUBLIC)[number], session?: string) =>
    t.app.inject({
      method: route.method,
      url: route.url,
      headers: {
        cookie: [csrf.cookie, session ? `${SESSION_COOKIE}=${session}` : '']
          .filter(Boolean)
          .join('; '),
        'x-csrf-token': csrf.token,
        ...('payload' in route ? { 'content-type': 'application/json' } : {}),
      },
      ...('payload' in route ? { payload: JSON.stringify(route.payload) } : {}),
    });

  it.each(PROTECTED)('$method $url without a session → 401', async (route) => {
    const response = await call(route);
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHORIZED');
  });

  it.each(PROTECTED)('$method $url with an unknown session → 403 invalidToken', async (route) => {
    const response = await call(route, 'not-a-session');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toBe('invalidToken');
  });

  it.each(PUBLIC)('$method $url is public', async (route) => {
    expect((await call(route)).statusCode).toBe(200);
  });

  it('a session sees only its own record, whoever else is signed in', async () => {
    const alice = (await call(PROTECTED[0], sessionOf.alice)).json().data;
    const bob = (await call(PROTECTED[0], sessionOf.bob)).json().data;
    expect(alice).toMatchObject({
      email: 'alice@example.com',
      firstName: 'Alice',
      dealership: 'Alice Autos',
    });
    expect(bob).toMatchObject({
      email: 'bob@example.com',
      firstName: 'Bob',
      dealership: 'Bob Trucks',
    });
    expect(JSON.stringify(alice)).not.toContain('bob@example.com');
    // Query strings or bodies naming another user change nothing.
    const sneaky = await t.app.inject({
      method: 'GET',
      url: '/api/users/current?userId=bob&dealerpassUserId=bob@example.com',
      headers: { cookie: `${SESSION_COOKIE}=${sessionOf.alice}` },
    });
    expect(sneaky.json().data.email).toBe('alice@example.com');
  });

  it('a blocked account reads its own record (to be sent to /authlogin) and nothing else', async () => {
    const current = await call(PROTECTED[0], sessionOf.blocked);
    expect(current.statusCode).toBe(200);
    expect(current.json().data.accountStatus).toBe('blocked');
    const connect = await call(PROTECTED[1], sessionOf.blocked);
    expect(connect.statusCode).toBe(403);
    expect(connect.json().code).toBe('ACCOUNT_BLOCKED');
  });

  it.each(PROTECTED)('$method $url with an expired session → 403 invalidToken', async (route) => {
    offsetMs = 31 * 60 * 1000; // past the idle limit for every session above
    try {
      const response = await call(route, sessionOf.bob);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toBe('invalidToken');
    } finally {
      offsetMs = 0;
    }
  });
});
