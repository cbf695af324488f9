import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { carfaxErrorMessage } from '@dealerpass/domain/messages/carfax-errors';
import { randomState } from '@dealerpass/domain/random-state';
import { randomBytes } from 'node:crypto';
import type { CarfaxFetch } from '../../src/adapters/carfax/carfax-oauth-client.ts';
import {
  CARFAX_SANDBOX_PASSWORD,
  CARFAX_SANDBOX_USERS,
} from '../../src/sandboxes/carfax/test-users.ts';
import { AUTOCHECK_SANDBOX_CREDENTIALS } from '../../src/sandboxes/autocheck/sandbox-autocheck.ts';
import { inProcessFetch } from '../../src/plugins/identity.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { createAccount, sessionFor } from '../factories/sign-in.ts';

/**
 * Issue 8 through the real app and the embedded Carfax and AutoCheck sandboxes: the Carfax
 * sign-in (state, PKCE, exact redirect URI), status 200/401/404, refresh, revoke, the access rule
 * on every integration route, AutoCheck saves through PUT /api/users/current, and finally a dump
 * of the whole database that must hold no token or AutoCheck password in plain text.
 */
describe('Carfax and AutoCheck integrations (issue 8)', () => {
  let t: TestApp;
  let offsetMs = 0;
  /** Every token the sandbox handed out, seen on the wire between our server and the sandbox. */
  const issuedTokens = new Set<string>();
  const typedPasswords = new Set<string>();
  let csrf: { cookie: string; token: string };
  const sessions: Record<string, string> = {};
  let viaInject: ReturnType<typeof inProcessFetch> | null = null;

  // The sandbox in process, as in production, with a tap that records the tokens it issues.
  const tappedFetch: CarfaxFetch = async (url, init) => {
    viaInject ??= inProcessFetch(t.app, t.app.identity.internalToken);
    const response = await viaInject(url, { ...init, redirect: 'manual' });
    const text = await response.clone().text();
    for (const match of text.matchAll(/cfx_(?:at|rt)_[\w-]+/g)) issuedTokens.add(match[0]);
    return response;
  };

  beforeAll(async () => {
    t = await buildTestApp({
      now: () => new Date(Date.now() + offsetMs),
      carfaxFetch: tappedFetch,
    });
    const accounts = {
      dealer: { email: 'dealer@example.com' },
      other: { email: 'other@example.com' },
      noCodes: { email: 'nocodes@example.com', subscriptions: ['NADA', 'MMR'] },
      inactive: { email: 'inactive@example.com', accountStatus: 'inactive' },
      blocked: { email: 'blocked@example.com', accountStatus: 'blocked' },
    };
    for (const [name, fields] of Object.entries(accounts)) {
      const { user } = await createAccount(t, fields);
      const rawId = await sessionFor(t, user.id);
      sessions[name] = rawId;
    }
    csrf = await t.browser();
  });
  afterAll(() => t.close());

  const rowsOf = async <T>(query: ReturnType<typeof sql>): Promise<T[]> =>
    ((await t.app.db.execute(query)) as unknown as { rows: T[] }).rows;

  const api = (
    who: string | null,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      headers: {
        cookie: [csrf.cookie, who ? `${SESSION_COOKIE}=${sessions[who]}` : '']
          .filter(Boolean)
          .join('; '),
        'x-csrf-token': csrf.token,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });

  const newState = () => randomState((n) => randomBytes(n));
  const loginCallback = () => t.app.carfax.loginCallbackUrl;
  const tokensUrl = (code: string, state: string, redirect = loginCallback()) =>
    `/api/v2/oauth/carfax/tokens/${encodeURIComponent(code)}/${encodeURIComponent(redirect)}?state=${state}`;

  /** The sandbox's page in a browser: its cookies, the form, the decision. */
  async function consent(
    authorizationUrl: string,
    form: { email?: string; password?: string; decision: 'allow' | 'deny' },
    cookies: string[] = [],
  ) {
    const url = new URL(authorizationUrl);
    const page = await t.app.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      headers: cookies.length ? { cookie: cookies.join('; ') } : {},
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const jar = [...cookies, ...page.cookies.map((c) => `${c.name}=${c.value}`)];
    const request = /name="request" value="([^"]+)"/.exec(page.body)?.[1];
    if (!request) throw new Error('no request field on the consent page');
    const posted = await t.app.inject({
      method: 'POST',
      url: url.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.join('; ') },
      payload: new URLSearchParams({ request, ...form }).toString(),
    });
    return { page, posted, jar: [...jar, ...posted.cookies.map((c) => `${c.name}=${c.value}`)] };
  }

  async function connect(who: string, email: string) {
    const state = newState();
    const start = await api(who, 'POST', '/api/v2/oauth/carfax/signin', { state });
    expect(start.statusCode).toBe(200);
    const { authorizationUrl } = start.json().data as { authorizationUrl: string };
    const { posted } = await consent(authorizationUrl, {
      email,
      password: CARFAX_SANDBOX_PASSWORD,
      decision: 'allow',
    });
    expect(posted.statusCode).toBe(303);
    const back = new URL(posted.headers.location as string);
    expect(`${back.origin}${back.pathname}`).toBe(loginCallback());
    expect(back.searchParams.get('state')).toBe(state);
    const code = back.searchParams.get('code') ?? '';
    return { state, code, tokens: await api(who, 'GET', tokensUrl(code, state)) };
  }

  it('GET /api/v2/config/env answers the Carfax client id and both callback URLs', async () => {
    const response = await api(null, 'GET', '/api/v2/config/env');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({
      carfaxClientId: 'dealerpass-sandbox',
      carfaxLoginCallbackUrl: `${t.app.config.publicUrl}/account/carfax/login`,
      carfaxLogoutCallbackUrl: `${t.app.config.publicUrl}/account/carfax/logout`,
    });
  });

  it('status is 404 before any sign-in', async () => {
    const response = await api('dealer', 'GET', '/api/v2/oauth/carfax/status');
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Tokens are missing');
  });

  it('the sign-in asks the sandbox for a code with PKCE S256 and the exact login callback', async () => {
    const state = newState();
    const start = await api('dealer', 'POST', '/api/v2/oauth/carfax/signin', { state });
    const url = new URL(start.json().data.authorizationUrl as string);
    expect(url.pathname).toBe('/carfax-sandbox/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'dealerpass-sandbox',
      redirect_uri: loginCallback(),
      state,
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    const badState = await api('dealer', 'POST', '/api/v2/oauth/carfax/signin', { state: 'x' });
    expect(badState.statusCode).toBe(400);
  });

  it('connects (200), and nothing answered carries a token', async () => {
    const { tokens } = await connect('dealer', 'short-lived@carfax.example');
    expect(tokens.statusCode).toBe(200);
    expect(tokens.json().data).toMatchObject({ status: 'connected' });
    const status = await api('dealer', 'GET', '/api/v2/oauth/carfax/status');
    expect(status.statusCode).toBe(200);
    expect(issuedTokens.size).toBeGreaterThanOrEqual(2);
    for (const body of [tokens.body, status.body, JSON.stringify(tokens.headers)]) {
      expect(body).not.toMatch(/cfx_(at|rt)_/);
      for (const token of issuedTokens) expect(body).not.toContain(token);
    }
  });

  it('status is 401 once the access token expired; refresh makes it 200 again', async () => {
    const user = CARFAX_SANDBOX_USERS.find((u) => u.email === 'short-lived@carfax.example')!;
    offsetMs = (user.accessTokenTtlSeconds + 5) * 1000;
    try {
      const expired = await api('dealer', 'GET', '/api/v2/oauth/carfax/status');
      expect(expired.statusCode).toBe(401);
      expect(expired.json().code).toBe('CARFAX_TOKENS_EXPIRED');
      const before = issuedTokens.size;
      const refreshed = await api('dealer', 'POST', '/api/v2/oauth/carfax/refresh');
      expect(refreshed.statusCode).toBe(200);
      expect(refreshed.body).not.toMatch(/cfx_(at|rt)_/);
      expect(issuedTokens.size).toBe(before + 2);
      const status = await api('dealer', 'GET', '/api/v2/oauth/carfax/status');
      expect(status.statusCode).toBe(200);
      expect(Date.parse(status.json().data.accessTokenExpiresAt)).toBeGreaterThan(
        Date.now() + offsetMs,
      );
    } finally {
      offsetMs = 0;
    }
  });

  it('a state this session did not start, a replayed code or a foreign redirect URI is refused', async () => {
    const { state, code } = await connect('other', 'dealer@carfax.example');
    // The same code and state again: the sign-in was taken once.
    const replay = await api('other', 'GET', tokensUrl(code, state));
    expect(replay.statusCode).toBe(400);
    // Another account cannot use this account's sign-in.
    const state2 = newState();
    await api('other', 'POST', '/api/v2/oauth/carfax/signin', { state: state2 });
    const stolen = await api('dealer', 'GET', tokensUrl('cfx_code_x', state2));
    expect(stolen.statusCode).toBe(400);
    const foreign = await api(
      'other',
      'GET',
      tokensUrl('cfx_code_x', state2, 'https://evil.example/account/carfax/login'),
    );
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe('Unable to fetch Carfax tokens!');
  });

  it('a provider failure maps to its Carfax code (001 §8)', async () => {
    const state = newState();
    const start = await api('other', 'POST', '/api/v2/oauth/carfax/signin', { state });
    const { posted } = await consent(start.json().data.authorizationUrl, {
      email: 'inactive-dealer@carfax.example',
      password: CARFAX_SANDBOX_PASSWORD,
      decision: 'allow',
    });
    const code = new URL(posted.headers.location as string).searchParams.get('code')!;
    const failed = await api('other', 'GET', tokensUrl(code, state));
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({
      code: 'CARFAX_TOKENS_FAILED',
      message: 'Unable to fetch Carfax tokens!',
      errors: [{ source: 'carfax', message: carfaxErrorMessage('INACTIVE_DEALER') }],
    });
  });

  it('the sandbox refuses wrong passwords on its page, and Deny returns access_denied', async () => {
    const state = newState();
    const start = await api('other', 'POST', '/api/v2/oauth/carfax/signin', { state });
    const wrong = await consent(start.json().data.authorizationUrl, {
      email: 'dealer@carfax.example',
      password: 'nope',
      decision: 'allow',
    });
    expect(wrong.posted.statusCode).toBe(401);
    expect(wrong.posted.body).toContain('role="alert"');
    const denied = await consent(start.json().data.authorizationUrl, { decision: 'deny' });
    const back = new URL(denied.posted.headers.location as string);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe(state);
  });

  it('the sandbox refuses an unregistered redirect URI without redirecting to it', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: `/carfax-sandbox/oauth2/authorize?response_type=code&client_id=dealerpass-sandbox&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
    });
    expect(page.statusCode).toBe(400);
    expect(page.headers.location).toBeUndefined();
  });

  it('revoke deletes our tokens, revokes them at the sandbox and answers its logout URL', async () => {
    const before = await api('dealer', 'GET', '/api/v2/oauth/carfax/status');
    expect(before.statusCode).toBe(200);
    const revoked = await api('dealer', 'POST', '/api/v2/oauth/carfax/revoke');
    expect(revoked.statusCode).toBe(200);
    const { logoutUrl, revoked: done } = revoked.json().data;
    expect(done).toBe(true);
    const logout = new URL(logoutUrl as string);
    expect(logout.pathname).toBe('/carfax-sandbox/oauth2/logout');
    expect(logout.searchParams.get('returnTo')).toBe(t.app.carfax.logoutCallbackUrl);
    expect((await api('dealer', 'GET', '/api/v2/oauth/carfax/status')).statusCode).toBe(404);
    // Every token the sandbox gave this account is dead now.
    const [live] = await rowsOf<{ n: number }>(
      sql`select count(*)::int as n from carfax_sandbox_tokens where revoked_at is null and subject = 'cfx-dealer-1002' and expires_at > now()`,
    );
    expect(live?.n).toBe(0);
    // The sandbox's logout returns to our registered logout callback only.
    const back = await t.app.inject({ method: 'GET', url: `${logout.pathname}${logout.search}` });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(t.app.carfax.logoutCallbackUrl);
    expect(revoked.body).not.toMatch(/cfx_(at|rt)_/);
  });

  const CARFAX_ROUTES = [
    ['POST', '/api/v2/oauth/carfax/signin', { state: 'a'.repeat(64) }],
    ['GET', '/api/v2/oauth/carfax/tokens/code/uri?state=' + 'a'.repeat(64), undefined],
    ['GET', '/api/v2/oauth/carfax/status', undefined],
    ['POST', '/api/v2/oauth/carfax/refresh', undefined],
    ['POST', '/api/v2/oauth/carfax/revoke', undefined],
  ] as const;

  it.each(CARFAX_ROUTES)(
    '%s %s: 401 signed out, 403 without CF, inactive or blocked',
    async (method, url, body) => {
      expect((await api(null, method, url, body)).statusCode).toBe(401);
      for (const [who, code] of [
        ['noCodes', 'INTEGRATION_NOT_HELD'],
        ['inactive', 'ACCOUNT_INACTIVE'],
        ['blocked', 'ACCOUNT_BLOCKED'],
      ] as const) {
        const response = await api(who, method, url, body);
        expect(response.statusCode, who).toBe(403);
        expect(response.json().code).toBe(code);
      }
    },
  );

  describe('AutoCheck through PUT /api/users/current', () => {
    const good = AUTOCHECK_SANDBOX_CREDENTIALS[1]!;
    const save = (who: string, body: Record<string, unknown>) => {
      if (typeof body.autoCheckPasswd === 'string' && body.autoCheckPasswd)
        typedPasswords.add(body.autoCheckPasswd);
      return api(who, 'PUT', '/api/users/current', body);
    };

    it('wrong credentials: 400 with the credential message on the ID and password fields', async () => {
      const response = await save('dealer', {
        autoCheckId: good.autoCheckId,
        autoCheckPasswd: 'Wrong!Pass9',
        autoCheckEnabled: true,
        autoCheckAutoPurchase: false,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'INVALID_CREDENTIALS',
        errors: [
          { source: 'autoCheckId', message: 'Invalid credentials. Please try again.' },
          { source: 'autoCheckPasswd', message: 'Invalid credentials. Please try again.' },
        ],
      });
      const user = (await api('dealer', 'GET', '/api/users/current')).json().data;
      expect(user.autoCheckPasswdSet).toBe(false);
    });

    it('the test credentials save; the password is never answered, only that one is set', async () => {
      const response = await save('dealer', {
        autoCheckId: good.autoCheckId,
        autoCheckPasswd: good.password,
        autoCheckEnabled: true,
        autoCheckAutoPurchase: true,
      });
      expect(response.statusCode).toBe(200);
      const data = response.json().data;
      expect(data).toMatchObject({
        autoCheckId: good.autoCheckId,
        autoCheckEnabled: true,
        autoCheckAutoPurchase: true,
        autoCheckPasswdSet: true,
      });
      expect(data).not.toHaveProperty('autoCheckPasswd');
      expect(response.body).not.toContain(good.password);
    });

    it('a blank password keeps the stored one; flags change without a new check', async () => {
      const response = await save('dealer', {
        autoCheckId: good.autoCheckId,
        autoCheckPasswd: '',
        autoCheckEnabled: true,
        autoCheckAutoPurchase: false,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({
        autoCheckAutoPurchase: false,
        autoCheckPasswdSet: true,
      });
    });

    it('the form rules: agree required once in use, password required when none is stored', async () => {
      const noAgree = await save('dealer', {
        autoCheckId: good.autoCheckId,
        autoCheckEnabled: false,
      });
      expect(noAgree.statusCode).toBe(400);
      expect(noAgree.json().errors).toEqual([
        {
          source: 'autoCheckEnabled',
          message: 'You must agree to the AutoCheck integration terms.',
        },
      ]);
      const noPassword = await save('other', { autoCheckId: 'DPDEMO1001', autoCheckEnabled: true });
      expect(noPassword.statusCode).toBe(400);
      expect(noPassword.json().errors).toEqual([
        { source: 'autoCheckPasswd', message: 'AutoCheck password is required.' },
      ]);
    });

    it('a profile save (verifyAutoCheckCredentials false) leaves AutoCheck alone', async () => {
      const response = await save('dealer', {
        verifyAutoCheckCredentials: false,
        autoCheckId: '',
        autoCheckEnabled: false,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({
        autoCheckId: good.autoCheckId,
        autoCheckPasswdSet: true,
      });
    });

    it('AutoCheck out of reach is 503, and nothing is stored', async () => {
      const response = await save('other', {
        autoCheckId: 'DPDEMO-DOWN',
        autoCheckPasswd: 'Whatever!1',
        autoCheckEnabled: true,
      });
      expect(response.statusCode).toBe(503);
      expect(response.json().code).toBe('AUTOCHECK_UNAVAILABLE');
    });

    it('AutoCheck fields need an active account holding AC', async () => {
      for (const [who, code] of [
        ['noCodes', 'INTEGRATION_NOT_HELD'],
        ['inactive', 'ACCOUNT_INACTIVE'],
        ['blocked', 'ACCOUNT_BLOCKED'],
      ] as const) {
        const response = await save(who, {
          autoCheckId: good.autoCheckId,
          autoCheckPasswd: good.password,
          autoCheckEnabled: true,
        });
        expect(response.statusCode, who).toBe(403);
        expect(response.json().code).toBe(code);
      }
      expect((await save('noCodes', { verifyAutoCheckCredentials: false })).statusCode).toBe(200);
    });

    it('everything blank and unticked removes the integration', async () => {
      await save('other', {
        autoCheckId: good.autoCheckId,
        autoCheckPasswd: good.password,
        autoCheckEnabled: true,
      });
      const response = await save('other', {
        autoCheckId: '',
        autoCheckPasswd: '',
        autoCheckEnabled: false,
        autoCheckAutoPurchase: false,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({ autoCheckId: '', autoCheckPasswdSet: false });
    });
  });

  it('a dump of every table (every column as text) holds no token or AutoCheck password in plain text', async () => {
    // Leave one live connection and one stored AutoCheck password in the database.
    await connect('other', 'dealer@carfax.example');
    expect((await api('other', 'GET', '/api/v2/oauth/carfax/status')).statusCode).toBe(200);
    const good = AUTOCHECK_SANDBOX_CREDENTIALS[1]!;
    expect(
      (
        await api('other', 'PUT', '/api/users/current', {
          autoCheckId: good.autoCheckId,
          autoCheckPasswd: good.password,
          autoCheckEnabled: true,
        })
      ).statusCode,
    ).toBe(200);
    typedPasswords.add(good.password);

    const tables = await rowsOf<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    const names = tables.map((row) => row.table_name);
    expect(names).toEqual(expect.arrayContaining(['carfax_connections', 'users', 'sessions']));
    let dump = '';
    for (const name of names) {
      const rows = await rowsOf<{ row: string }>(sql.raw(`select t::text as row from "${name}" t`));
      dump += rows.map((row) => row.row).join('\n');
    }
    expect(dump).toContain('v1.'); // the sealed values are there
    expect(issuedTokens.size).toBeGreaterThanOrEqual(6);
    for (const token of issuedTokens) {
      expect(dump).not.toContain(token);
      expect(dump).not.toContain(token.slice(7)); // nor the random part alone
    }
    for (const password of typedPasswords) expect(dump).not.toContain(password);
    expect(dump).not.toMatch(/cfx_(at|rt|code)_/);
  });
});
