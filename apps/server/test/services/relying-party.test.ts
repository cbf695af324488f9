import { generateKeyPair, exportJWK, SignJWT, type CryptoKey } from 'jose';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessions, users } from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { CookieJar } from '../factories/sign-in.ts';
import { createProviderDouble } from '../support/oidc-provider-double.ts';

const ISSUER = 'https://idp.example.test';
const CLIENT_ID = 'dealerpass-web';
const SUBJECT = 'ext-subject-42';

describe('the relying party refuses what it must (issue 4)', () => {
  let t: TestApp;
  let provider: ReturnType<typeof createProviderDouble>;
  let goodKey: CryptoKey;
  let otherKey: CryptoKey;

  beforeAll(async () => {
    const good = await generateKeyPair('RS256');
    const other = await generateKeyPair('RS256');
    goodKey = good.privateKey;
    otherKey = other.privateKey;
    provider = createProviderDouble(
      { ...(await exportJWK(good.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' },
      { issuer: ISSUER, clientId: CLIENT_ID, subject: SUBJECT },
    );
    t = await buildTestApp({
      env: { OIDC_ISSUER: ISSUER, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: 'client-secret' },
      rpFetch: provider.fetch,
    });
    await t.app.db.insert(users).values({
      dealerpassUserId: 'external.user',
      karId: SUBJECT,
      email: 'ext@example.com',
      firstName: 'Ext',
      lastName: 'User',
      dealership: 'Ext Motors',
      phone: '3135550100',
      address1: '1 Main St',
      city: 'Detroit',
      state: 'MI',
      zip: '48201',
    });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    provider.state.claims = {};
    provider.state.sign = (claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(goodKey);
  });

  /** Starts a sign-in and returns what the provider would redirect back with. */
  async function startSignIn() {
    const jar = new CookieJar();
    const start = await t.app.inject({ method: 'GET', url: '/login' });
    jar.take(start);
    const authorize = new URL(start.headers.location as string);
    expect(authorize.origin + authorize.pathname).toBe(`${ISSUER}/auth`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('scope')).toBe('openid profile email offline_access');
    const code = `code-${Math.random()}`;
    provider.state.codes.add(code);
    const state = authorize.searchParams.get('state')!;
    const nonce = authorize.searchParams.get('nonce')!;
    const callback = `/web/oauth/callback/karid/login?code=${code}&state=${state}`;
    return { jar, state, nonce, code, callback };
  }

  async function callback(jar: CookieJar, url: string) {
    const response = await t.app.inject({
      method: 'GET',
      url,
      headers: { cookie: jar.header(url) },
    });
    jar.take(response);
    return { location: response.headers.location, session: jar.get(SESSION_COOKIE) };
  }

  it('accepts a correct response and starts a session flagged as a DealerPass ID sign-in', async () => {
    const flow = await startSignIn();
    provider.state.claims = { nonce: flow.nonce };
    const result = await callback(flow.jar, flow.callback);
    expect(result.location).toBe('/account');
    expect(result.session).toBeDefined();
  });

  const refused: [string, (flow: Awaited<ReturnType<typeof startSignIn>>) => void][] = [
    ['a wrong nonce', () => (provider.state.claims = { nonce: 'someone-elses-nonce' })],
    [
      'an ID token with a bad signature',
      (flow) => {
        provider.state.claims = { nonce: flow.nonce };
        provider.state.sign = (claims) =>
          new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(otherKey);
      },
    ],
    [
      'a wrong issuer',
      (flow) => (provider.state.claims = { nonce: flow.nonce, iss: 'https://evil.example.test' }),
    ],
    [
      'a wrong audience',
      (flow) => (provider.state.claims = { nonce: flow.nonce, aud: 'another-client' }),
    ],
    [
      'an expired ID token',
      (flow) =>
        (provider.state.claims = { nonce: flow.nonce, exp: Math.floor(Date.now() / 1000) - 3600 }),
    ],
  ];

  it.each(refused)('refuses %s and starts no session', async (_name, tamper) => {
    const before = (await t.app.db.select().from(sessions)).length;
    const flow = await startSignIn();
    tamper(flow);
    const result = await callback(flow.jar, flow.callback);
    expect(result.location).toBe('/authlogin?err=3');
    expect(result.session).toBeUndefined();
    expect((await t.app.db.select().from(sessions)).length).toBe(before);
  });

  it('refuses a wrong state, and a state from another browser', async () => {
    const flow = await startSignIn();
    provider.state.claims = { nonce: flow.nonce };
    const wrong = await callback(flow.jar, flow.callback.replace(/state=[^&]+/, 'state=forged'));
    expect(wrong.location).toBe('/authlogin?err=3');
    const otherBrowser = await callback(new CookieJar(), flow.callback);
    expect(otherBrowser.location).toBe('/authlogin?err=3');
    expect(otherBrowser.session).toBeUndefined();
  });

  it('refuses a replayed callback, and the provider refuses a replayed code', async () => {
    const flow = await startSignIn();
    provider.state.claims = { nonce: flow.nonce };
    expect((await callback(flow.jar, flow.callback)).location).toBe('/account');
    const replayJar = new CookieJar();
    const replay = await t.app.inject({
      method: 'GET',
      url: flow.callback,
      headers: { cookie: flow.jar.header('/') },
    });
    replayJar.take(replay);
    expect(replay.headers.location).toBe('/authlogin?err=3');

    // Even with valid checks, the code itself cannot be exchanged twice.
    await expect(
      t.app.identity.rp.completeSignIn(new URL(flow.callback, 'http://localhost:3000'), {
        state: flow.state,
        nonce: flow.nonce,
        codeVerifier: 'x'.repeat(43),
      }),
    ).rejects.toThrow();
  });

  it('keeps the provider’s tokens on the server only', async () => {
    const flow = await startSignIn();
    provider.state.claims = { nonce: flow.nonce };
    const response = await t.app.inject({
      method: 'GET',
      url: flow.callback,
      headers: { cookie: flow.jar.header(flow.callback) },
    });
    const everything = JSON.stringify(response.headers) + response.body;
    expect(everything).not.toContain('at-1');
    expect(everything).not.toContain('rt-1');
    expect(everything).not.toMatch(/eyJ[\w-]+\.eyJ/);
    const [row] = await t.app.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, (await t.app.db.select().from(users))[0]!.id));
    expect(row?.tokensEnc ?? '').not.toContain('rt-1');
  });
});
