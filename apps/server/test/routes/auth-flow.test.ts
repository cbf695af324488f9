import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcKeys, oidcPayloads, sessions } from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { oidcStorageId } from '../../src/identity/provider/db-adapter.ts';
import { deriveSubkey } from '../../src/lib/keys.ts';
import { open } from '../../src/lib/secret-box.ts';
import { issueIdentityToken } from '../../src/services/identity/identity-tokens.ts';
import { hashSessionId } from '../../src/services/session/session-store.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { createAccount, TestBrowserSession, TEST_PASSWORD } from '../factories/sign-in.ts';

describe('sign-in through the embedded OpenID provider (DECISIONS R6)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      routes: (app) =>
        app.get('/api/test/whoami', { config: { access: 'session' } }, async (request) => ({
          data: request.session,
        })),
    });
    await createAccount(t, { email: 'flow@example.com' });
  });
  afterAll(() => t.close());

  /** The provider storage's row key of an id, as the adapter computes it. */
  const storageId = (model: string, id: string) =>
    oidcStorageId(deriveSubkey(t.app.keys.lookup, 'oidc-storage'), model, id);

  /** The relying party's own client credentials (derived from the server secret). */
  const clientAuth = () =>
    `Basic ${Buffer.from(
      `dealerpass-web:${deriveSubkey(t.app.keys.encryption, 'oidc-client-secret').toString('base64url')}`,
    ).toString('base64')}`;

  const providerPost = (path: string, form: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: `/oidc${path}`,
      headers: {
        host: 'localhost:3000',
        authorization: clientAuth(),
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams(form).toString(),
    });

  const refresh = (refreshToken: string) =>
    providerPost('/token', { grant_type: 'refresh_token', refresh_token: refreshToken });

  const userinfo = (accessToken: string) =>
    t.app.inject({
      method: 'GET',
      url: '/oidc/me',
      headers: { host: 'localhost:3000', authorization: `Bearer ${accessToken}` },
    });

  /** The provider tokens a signed-in browser's session holds (sealed in our sessions table). */
  async function tokensOf(browser: TestBrowserSession) {
    const cookie = browser.jar.get(SESSION_COOKIE)!;
    const [session] = await t.app.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, hashSessionId(cookie)));
    return JSON.parse(open(t.app.keys.encryption, session!.tokensEnc!, session!.idHash)) as {
      idToken: string;
      accessToken: string;
      refreshToken: string;
    };
  }

  it('publishes discovery with PKCE S256, refresh tokens and RP-initiated logout, and its keys', async () => {
    const discovery = (
      await t.app.inject({
        method: 'GET',
        url: '/oidc/.well-known/openid-configuration',
        headers: { host: 'localhost:3000' },
      })
    ).json();
    expect(discovery.issuer).toBe('http://localhost:3000/oidc');
    expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
    expect(discovery.grant_types_supported).toContain('refresh_token');
    expect(discovery.end_session_endpoint).toBe('http://localhost:3000/oidc/session/end');
    expect(discovery.scopes_supported).toEqual(
      expect.arrayContaining(['openid', 'profile', 'email', 'offline_access']),
    );
    const jwks = (await t.app.inject({ method: 'GET', url: '/oidc/jwks' })).json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).not.toHaveProperty('d'); // public part only
    const [stored] = await t.app.db.select().from(oidcKeys);
    expect(stored?.privateJwkEnc).toMatch(/^v1\./); // sealed at rest
  });

  it('signs in by e-mail and password, lands on the target, with a Secure HttpOnly __Host- session cookie', async () => {
    const browser = new TestBrowserSession(t);
    const { login, landed } = await browser.signIn(
      { method: 'email', email: 'flow@example.com', password: TEST_PASSWORD },
      '/account/billing',
    );
    expect(login.statusCode).toBe(200);
    expect(landed).toBe('/account/billing');

    const whoami = await browser.get('/api/test/whoami');
    expect(whoami.statusCode).toBe(200);
    expect(whoami.json().data).toMatchObject({ context: 'web', viaKarId: true });
    const session = await browser.get('/api/auth/session');
    expect(session.json()).toEqual({ data: { context: 'web', loggedInViaKarId: true } });
    expect(session.headers['cache-control']).toBe('no-store');

    // No provider token in what the browser holds or sees.
    const [row] = await t.app.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, whoami.json().data.idHash));
    expect(row?.tokensEnc).toMatch(/^v1\./);
    expect(whoami.body).not.toMatch(/eyJ/);
  });

  it('refuses a wrong password with the specification’s message', async () => {
    const browser = new TestBrowserSession(t);
    const { login, landed } = await browser.signIn({
      method: 'email',
      email: 'flow@example.com',
      password: 'Wrong!Passw0rd',
    });
    expect(landed).toBeNull();
    expect(login.statusCode).toBe(400);
    expect(login.json()).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: 'Invalid credentials. Please try again.',
    });
  });

  it('rotates: every sign-in gets a new session id, and the older session gets 403 duplicateSession', async () => {
    const first = new TestBrowserSession(t);
    await first.signIn({ method: 'email', email: 'flow@example.com', password: TEST_PASSWORD });
    const firstId = first.jar.get(SESSION_COOKIE);
    const second = new TestBrowserSession(t);
    second.jar.set(SESSION_COOKIE, firstId ?? ''); // even a planted cookie is replaced
    await second.signIn({ method: 'email', email: 'flow@example.com', password: TEST_PASSWORD });
    const secondId = second.jar.get(SESSION_COOKIE);
    expect(secondId).toBeDefined();
    expect(secondId).not.toBe(firstId);
    expect(secondId!.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url

    const stale = await first.get('/api/test/whoami');
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toBe('duplicateSession');
    expect((await second.get('/api/test/whoami')).statusCode).toBe(200);
  });

  it('signs out: tokens revoked, the provider session ended, and the old cookie gets 403 invalidToken', async () => {
    const browser = new TestBrowserSession(t);
    await browser.signIn({ method: 'email', email: 'flow@example.com', password: TEST_PASSWORD });
    const cookie = browser.jar.get(SESSION_COOKIE)!;
    const [session] = await t.app.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, hashSessionId(cookie)));
    const { refreshToken } = JSON.parse(
      open(t.app.keys.encryption, session!.tokensEnc!, session!.idHash),
    ) as { refreshToken: string };
    expect(refreshToken).toBeTruthy();
    const logout = await browser.send('POST', '/api/auth/logout');
    expect(logout.statusCode).toBe(200);
    const redirectTo = new URL(logout.json().data.redirectTo as string);
    expect(redirectTo.pathname).toBe('/oidc/session/end');
    expect(redirectTo.searchParams.get('post_logout_redirect_uri')).toBe(
      'http://localhost:3000/web/oauth/callback/karid/logout',
    );

    // The provider's confirmation page posts itself; a browser without script presses the button.
    const end = await browser.get(`${redirectTo.pathname}${redirectTo.search}`);
    expect(end.statusCode).toBe(200);
    const action = /<form[^>]*action="([^"]+)"/.exec(end.body)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(end.body)?.[1];
    expect(end.headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-/);
    const confirm = await t.app.inject({
      method: 'POST',
      url: new URL(action!).pathname,
      headers: {
        cookie: browser.jar.header('/oidc/session/end/confirm'),
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams({ xsrf: xsrf!, logout: 'yes' }).toString(),
    });
    browser.jar.take(confirm);
    expect(confirm.statusCode).toBe(303);
    const back = new URL(confirm.headers.location as string);
    expect(back.pathname).toBe('/web/oauth/callback/karid/logout');
    expect((await browser.follow(back.pathname)).url).toBe('/authlogout');

    browser.jar.set(SESSION_COOKIE, cookie);
    const after = await browser.get('/api/test/whoami');
    expect(after.statusCode).toBe(403);
    expect(after.json()).toBe('invalidToken');
    // Revoked at the provider: the refresh token no longer exists there (rows are keyed by hash).
    const stored = await t.app.db
      .select()
      .from(oidcPayloads)
      .where(
        and(
          eq(oidcPayloads.model, 'RefreshToken'),
          eq(oidcPayloads.id, storageId('RefreshToken', refreshToken)),
        ),
      );
    expect(stored).toEqual([]);
    expect(await refresh(refreshToken)).toMatchObject({ statusCode: 400 });
    const [ended] = await t.app.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, hashSessionId(cookie)));
    expect(ended).toMatchObject({ endReason: 'logout', tokensEnc: null });
  });

  it('keeps no provider token or session id in clear: rows keyed by hash, payloads sealed (issue 13)', async () => {
    const browser = new TestBrowserSession(t);
    await browser.signIn({ method: 'email', email: 'flow@example.com', password: TEST_PASSWORD });
    const { accessToken, refreshToken, idToken } = await tokensOf(browser);
    const providerSession = browser.jar.get('_session');
    expect(providerSession).toBeTruthy();
    const secrets = { accessToken, refreshToken, providerSession: providerSession! };

    const rows = await t.app.db.select().from(oidcPayloads);
    expect(rows.map((row) => row.model)).toEqual(
      expect.arrayContaining(['AccessToken', 'RefreshToken', 'Session', 'Grant']),
    );
    const dump = JSON.stringify(rows);
    for (const [name, secret] of Object.entries(secrets)) {
      expect(dump.includes(secret), `${name} in oidc_payloads`).toBe(false);
    }
    // Payloads repeat ids (jti, uid, grantId): none is readable without the key.
    for (const row of rows) expect(row.payloadEnc).toMatch(/^v1\./);
    expect(rows.find((row) => row.id === storageId('AccessToken', accessToken))).toBeDefined();

    // Everything keeps working: userinfo, refresh, and revocation.
    const me = await userinfo(accessToken);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email: 'flow@example.com' });
    const refreshed = await refresh(refreshToken);
    expect(refreshed.statusCode).toBe(200);
    const renewed = refreshed.json<{
      access_token: string;
      refresh_token: string;
      id_token: string;
    }>();
    expect(renewed.id_token).toBeTruthy();
    expect(idToken).toBeTruthy();
    expect((await userinfo(renewed.access_token)).statusCode).toBe(200);
    const after = JSON.stringify(await t.app.db.select().from(oidcPayloads));
    expect(after.includes(renewed.access_token)).toBe(false);
    expect(after.includes(renewed.refresh_token)).toBe(false);

    const revoked = await providerPost('/token/revocation', {
      token: renewed.access_token,
      token_type_hint: 'access_token',
    });
    expect(revoked.statusCode).toBe(200);
    expect((await userinfo(renewed.access_token)).statusCode).toBe(401);
  });

  async function refreshTokenStored(refreshToken: string) {
    const rows = await t.app.db
      .select()
      .from(oidcPayloads)
      .where(
        and(
          eq(oidcPayloads.model, 'RefreshToken'),
          eq(oidcPayloads.id, storageId('RefreshToken', refreshToken)),
        ),
      );
    return rows.length > 0;
  }

  it('a password reset from the e-mailed link ends the account’s sessions and revokes their tokens (issue 13.7)', async () => {
    const email = 'reset-ends@example.com';
    await createAccount(t, { email });
    const signedIn = new TestBrowserSession(t);
    await signedIn.signIn({ method: 'email', email, password: TEST_PASSWORD });
    expect((await signedIn.get('/api/test/whoami')).statusCode).toBe(200);
    const { refreshToken } = await tokensOf(signedIn);
    expect(await refreshTokenStored(refreshToken)).toBe(true);

    // Someone else, e.g. the owner on another device, resets the password through the e-mail.
    const other = new TestBrowserSession(t);
    await other.open('/identity/forgot-password');
    const forgot = await other.send('POST', '/api/identity/password/forgot', {
      email,
      recaptcha: await t.solveCaptcha(),
    });
    expect(forgot.statusCode).toBe(200);
    const mailbox = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
    const mail = (mailbox.json().data.messages as { to: string; text: string }[]).find(
      (message) => message.to === email,
    );
    const token = /reset-password\?token=([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '')?.[1];
    expect(token).toBeDefined();
    const reset = await other.send('POST', '/api/identity/password/reset', {
      token,
      password: 'Brand!New2026',
      confirmPassword: 'Brand!New2026',
    });
    expect(reset.statusCode).toBe(200);

    const after = await signedIn.get('/api/test/whoami');
    expect(after.statusCode).toBe(403);
    expect(after.json()).toBe('invalidToken');
    expect(await refreshTokenStored(refreshToken)).toBe(false);
    // A reset does not sign anyone in: the new password is typed at the sign-in page.
    const { url } = await other.follow('/login');
    expect(url).toMatch(/^\/oidc\/interaction\/[\w-]+$/);
  });

  it('setting the password from the verification e-mail signs in at once and lands on forwardTo (R6, issue 14.17)', async () => {
    const email = 'first-password@example.com';
    const { user, identityId } = await createAccount(t, { email });
    const token = await issueIdentityToken(t.app.db, {
      identityId: identityId!,
      purpose: 'set-password',
      now: new Date(),
      ttlMinutes: 60,
    });
    const browser = new TestBrowserSession(t);
    await browser.open(`/identity/set-password?token=${token}`);
    const set = await browser.send('POST', '/api/identity/password/set', {
      token,
      password: 'First!Pass2026',
      confirmPassword: 'First!Pass2026',
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ data: { email } });
    // No token in the body; the one-time grant is an HttpOnly cookie of this browser.
    const grant = set.cookies.find((cookie) => cookie.name === '__Host-dp-signin');
    expect(grant).toMatchObject({ httpOnly: true, secure: true, path: '/', sameSite: 'Lax' });

    // The page then opens the link's sign-in path: the normal sign-in, with no password typed.
    const { url } = await browser.follow(
      `/login?returnTo=${encodeURIComponent('/account/billing')}&hint=${encodeURIComponent(email)}`,
    );
    expect(url).toBe('/account/billing');
    const whoami = await browser.get('/api/test/whoami');
    expect(whoami.statusCode).toBe(200);
    expect(whoami.json().data).toMatchObject({ userId: user.id, context: 'web', viaKarId: true });
    expect((await tokensOf(browser)).refreshToken).toBeTruthy();

    // Single use: the next sign-in asks for the password again.
    browser.jar.set('__Host-dp-signin', grant!.value);
    const again = await browser.follow('/login');
    expect(again.url).toMatch(/^\/oidc\/interaction\/[\w-]+$/);
  });

  it('answers 401 without a cookie and 403 invalidToken for an unknown one', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/test/whoami' })).statusCode).toBe(401);
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/test/whoami',
      headers: { cookie: `${SESSION_COOKIE}=made-up` },
    });
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json()).toBe('invalidToken');
  });
});
