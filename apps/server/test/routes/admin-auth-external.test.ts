import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffSessions, staffUsers } from '../../src/db/schema.ts';
import { STAFF_SESSION_COOKIE } from '../../src/plugins/staff-session.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { createProviderDouble } from '../support/oidc-provider-double.ts';
import { CookieJar } from '../factories/sign-in.ts';

const ISSUER = 'https://staff-idp.example.test';
const CLIENT_ID = 'dealerpass-console';

/**
 * Staff signing in at an external provider of their own (STAFF_OIDC_*, docs/decisions/026): the
 * member an admin added is found by the verified e-mail at the first sign-in and by the
 * provider's subject from then on; anyone else is refused.
 */
describe('staff sign-in at an external provider', () => {
  let t: TestApp;
  let provider: ReturnType<typeof createProviderDouble>;

  beforeAll(async () => {
    const keys = await generateKeyPair('RS256');
    provider = createProviderDouble(
      { ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' },
      { issuer: ISSUER, clientId: CLIENT_ID, subject: 'unused' },
    );
    provider.state.sign = (claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(keys.privateKey);
    t = await buildTestApp({
      env: {
        STAFF_OIDC_ISSUER: ISSUER,
        STAFF_OIDC_CLIENT_ID: CLIENT_ID,
        STAFF_OIDC_CLIENT_SECRET: 'staff-client-secret',
      },
      rpFetch: provider.fetch,
    });
    await t.app.db
      .insert(staffUsers)
      .values({ email: 'ext.member@staff.test', name: 'Ext Member', role: 'billing' });
  });
  afterAll(() => t.close());

  /** /admin/login at the external provider, back with an ID token of these claims. */
  async function signIn(claims: Record<string, unknown>) {
    const jar = new CookieJar();
    const start = await t.app.inject({ method: 'GET', url: '/admin/login' });
    jar.take(start);
    const authorize = new URL(start.headers.location as string);
    expect(authorize.origin + authorize.pathname).toBe(`${ISSUER}/auth`);
    expect(authorize.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(authorize.searchParams.get('redirect_uri')).toBe(
      `${t.app.config.publicUrl}/admin/oauth/callback`,
    );
    const code = `code-${Math.random()}`;
    provider.state.codes.add(code);
    provider.state.claims = { nonce: authorize.searchParams.get('nonce'), ...claims };
    const url = `/admin/oauth/callback?code=${code}&state=${authorize.searchParams.get('state')}`;
    const response = await t.app.inject({
      method: 'GET',
      url,
      headers: { cookie: jar.header(url) },
    });
    jar.take(response);
    return { location: response.headers.location, cookie: jar.get(STAFF_SESSION_COOKIE) };
  }

  it('binds the member by verified e-mail, then knows it by subject', async () => {
    const first = await signIn({
      sub: 'okta|123',
      email: 'Ext.Member@staff.test',
      email_verified: true,
    });
    expect(first.location).toBe('/admin');
    expect(first.cookie).toBeTruthy();
    const [member] = await t.app.db
      .select()
      .from(staffUsers)
      .where(eq(staffUsers.email, 'ext.member@staff.test'));
    expect(member?.externalSubject).toBe('okta|123');

    // The e-mail changed at the provider: the subject still finds the member.
    const later = await signIn({
      sub: 'okta|123',
      email: 'renamed@staff.test',
      email_verified: true,
    });
    expect(later.location).toBe('/admin');
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/admin/session',
      headers: { cookie: `${STAFF_SESSION_COOKIE}=${later.cookie}` },
    });
    expect(session.json().data).toMatchObject({ role: 'billing', secondFactor: false });
  });

  it.each([
    [
      'an unverified e-mail',
      { sub: 'okta|456', email: 'ext.member@staff.test', email_verified: false },
    ],
    [
      'an e-mail no admin added',
      { sub: 'okta|789', email: 'stranger@staff.test', email_verified: true },
    ],
    // The member is bound to okta|123: another subject with its e-mail does not take it over.
    [
      'another subject with a bound member’s e-mail',
      { sub: 'okta|999', email: 'ext.member@staff.test', email_verified: true },
    ],
  ])('refuses %s and starts no session', async (_name, claims) => {
    const before = (await t.app.db.select().from(staffSessions)).length;
    const result = await signIn(claims);
    expect(result.location).toBe('/admin/signed-out?err=sign-in');
    expect(result.cookie).toBeUndefined();
    expect((await t.app.db.select().from(staffSessions)).length).toBe(before);
  });
});
