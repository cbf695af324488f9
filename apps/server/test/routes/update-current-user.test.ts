import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { createAccount, sessionFor } from '../factories/sign-in.ts';

/**
 * PUT /api/users/current (000 §5, §7; issue 7): only the alternate e-mail and alternate phone are
 * written; every other field in the body is ignored; 'Alternate email not valid.'; the
 * `verifyAutoCheckCredentials=false` flag of the profile save; session, CSRF and blocked checks.
 */
describe('PUT /api/users/current', () => {
  let t: TestApp;
  let csrf: { cookie: string; token: string };
  const sessions: Record<'alice' | 'bob' | 'blocked', string> = { alice: '', bob: '', blocked: '' };
  const ids: Record<'alice' | 'bob' | 'blocked', string> = { alice: '', bob: '', blocked: '' };

  beforeAll(async () => {
    t = await buildTestApp();
    for (const [name, extra] of [
      ['alice', {}],
      ['bob', { altEmail: 'bob.alt@example.com' }],
      ['blocked', { accountStatus: 'blocked' }],
    ] as const) {
      const { user } = await createAccount(t, { email: `${name}@example.com`, ...extra });
      ids[name] = user.id;
      const rawId = await sessionFor(t, user.id);
      sessions[name] = rawId;
    }
    csrf = await t.browser();
  });
  afterAll(() => t.close());

  const put = (
    who: keyof typeof sessions | null,
    payload: unknown,
    query = '?verifyAutoCheckCredentials=false',
    withCsrf = true,
  ) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/users/current${query}`,
      headers: {
        cookie: [csrf.cookie, who ? `${SESSION_COOKIE}=${sessions[who]}` : '']
          .filter(Boolean)
          .join('; '),
        ...(withCsrf ? { 'x-csrf-token': csrf.token } : {}),
        'content-type': 'application/json',
      },
      payload: JSON.stringify(payload),
    });

  const rowOf = async (who: keyof typeof ids) => {
    const [row] = await t.app.db.select().from(users).where(eq(users.id, ids[who]));
    return row!;
  };

  it('writes the alternate e-mail and phone and answers the user', async () => {
    const response = await put('alice', {
      altEmail: 'alice.desk@example.com',
      altPhone: '3135550199',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      email: 'alice@example.com',
      altEmail: 'alice.desk@example.com',
      altPhone: '3135550199',
    });
    const row = await rowOf('alice');
    expect(row.altEmail).toBe('alice.desk@example.com');
    expect(row.altPhone).toBe('3135550199');
  });

  it('ignores every other field of the merged profile: nothing else is written', async () => {
    const before = await rowOf('alice');
    const response = await put('alice', {
      altPhone: '3135550100',
      firstName: 'Mallory',
      email: 'mallory@example.com',
      dealership: 'Evil Motors',
      accountStatus: 'active',
      accountStatusDetails: 'complimentary',
      subscriptions: ['APG', 'KBB'],
      currentBalance: -500,
      karId: 'someone-else',
      dealerpassUserId: 'bob@example.com',
      creditCardNumber: '************1111',
      billingCity: 'Nowhere',
      autoCheckId: 'AC-1',
      autoCheckEnabled: false,
      altPhoneCountryCode: 'CA',
    });
    expect(response.statusCode).toBe(200);
    const after = await rowOf('alice');
    expect(after.altPhone).toBe('3135550100');
    const { altPhone: _a, updatedAt: _u, ...restBefore } = before;
    const { altPhone: _b, updatedAt: _v, ...restAfter } = after;
    expect(restAfter).toEqual(restBefore);
  });

  it('absent keys change nothing; empty values clear', async () => {
    expect((await put('alice', {})).statusCode).toBe(200);
    expect((await rowOf('alice')).altEmail).toBe('alice.desk@example.com');
    const cleared = await put('alice', { altEmail: '', altPhone: '' });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().data).toMatchObject({ altEmail: '', altPhone: '' });
    const row = await rowOf('alice');
    expect(row.altEmail).toBeNull();
    expect(row.altPhone).toBeNull();
  });

  it("refuses an invalid alternate e-mail with 'Alternate email not valid.' and writes nothing", async () => {
    const response = await put('alice', { altEmail: 'not-an-address', altPhone: '3135550111' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({
      source: 'altEmail',
      message: 'Alternate email not valid.',
    });
    expect((await rowOf('alice')).altPhone).toBeNull();
  });

  it('refuses an alternate phone that is not ten digits', async () => {
    const response = await put('alice', { altPhone: '313-555' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({
      source: 'altPhone',
      message: 'Valid 10 digit phone number is required',
    });
  });

  it("refuses another account's address as alternate e-mail (409), accepts one's own", async () => {
    for (const taken of ['bob@example.com', 'BOB.ALT@example.com']) {
      const response = await put('alice', { altEmail: taken });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        code: 'ALT_EMAIL_IN_USE',
        errors: [{ source: 'altEmail', message: 'Alternate email already in use.' }],
      });
    }
    expect((await put('alice', { altEmail: 'alice@example.com' })).statusCode).toBe(200);
  });

  it('with verifyAutoCheckCredentials=false the AutoCheck rules do not apply; without it they do', async () => {
    const partial = { altPhone: '3135550122', autoCheckId: 'AC-1' };
    expect((await put('alice', partial)).statusCode).toBe(200);
    const checked = await put('alice', partial, '');
    expect(checked.statusCode).toBe(400);
    const inBody = await put('alice', { ...partial, verifyAutoCheckCredentials: false }, '');
    expect(inBody.statusCode).toBe(200);
    // AutoCheck values are not written by the profile save.
    expect((await rowOf('alice')).autoCheckId).toBeNull();
  });

  it('without a session → 401, without the CSRF token → 403, blocked → 403', async () => {
    expect((await put(null, { altPhone: '3135550100' })).statusCode).toBe(401);
    const noCsrf = await put('alice', { altPhone: '3135550177' }, '', false);
    expect(noCsrf.statusCode).toBe(403);
    expect((await rowOf('alice')).altPhone).not.toBe('3135550177');
    const blocked = await put('blocked', { altPhone: '3135550100' });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().code).toBe('ACCOUNT_BLOCKED');
    expect((await rowOf('blocked')).altPhone).toBeNull();
  });

  it("only the session's own row changes", async () => {
    const bobBefore = await rowOf('bob');
    await put('alice', { altPhone: '3135550155', dealerpassUserId: 'bob@example.com' });
    expect(await rowOf('bob')).toEqual(bobBefore);
  });
});
