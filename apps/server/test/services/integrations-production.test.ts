import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomState } from '@dealerpass/domain/random-state';
import { carfaxErrorMessage } from '@dealerpass/domain/messages/carfax-errors';
import { createAutoCheckApiVerifier } from '../../src/adapters/autocheck/autocheck-api.ts';
import {
  CarfaxProviderError,
  createCarfaxClient,
  type CarfaxClient,
} from '../../src/adapters/carfax/carfax-oauth-client.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import {
  startAutoCheckDouble,
  startCarfaxDouble,
  type AutoCheckDouble,
  type CarfaxDouble,
} from '../support/integrations-doubles.ts';
import { createAccount, sessionFor } from '../factories/sign-in.ts';

/**
 * The production adapters (issue 8) against local doubles of Carfax's OAuth 2.0 endpoints and
 * AutoCheck's credential check: first the adapters alone, then the whole app configured for them.
 */
describe('production Carfax and AutoCheck adapters against local doubles', () => {
  let carfax: CarfaxDouble;
  let autoCheck: AutoCheckDouble;
  let client: CarfaxClient;

  beforeAll(async () => {
    carfax = await startCarfaxDouble();
    autoCheck = await startAutoCheckDouble();
    client = createCarfaxClient({
      kind: 'carfax',
      clientId: carfax.clientId,
      clientSecret: carfax.clientSecret,
      authorizeUrl: `${carfax.url}/authorize`,
      tokenUrl: `${carfax.url}/oauth/token`,
      revokeUrl: `${carfax.url}/oauth/revoke`,
      logoutUrl: `${carfax.url}/v2/logout`,
      scope: 'offline_access',
      audience: 'https://connect.carfax.example',
      timeoutMs: 500,
    });
  });
  afterAll(async () => {
    await carfax.close();
    await autoCheck.close();
  });

  const challengeFor = () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    return { verifier, challenge };
  };

  it('exchanges a code with Basic client authentication and PKCE, refreshes and revokes', async () => {
    const { verifier, challenge } = challengeFor();
    const redirectUri = 'https://dealerpass.example/account/carfax/login';
    const url = await client.authorizationUrl({
      state: 's'.repeat(64),
      codeVerifier: verifier,
      redirectUri,
    });
    expect(new URL(url).searchParams.get('audience')).toBe('https://connect.carfax.example');
    // RFC 7636 S256, computed here independently of the client.
    expect(new URL(url).searchParams.get('code_challenge')).toBe(challenge);
    expect(new URL(url).searchParams.get('code_challenge_method')).toBe('S256');
    const code = carfax.authorize(url);
    const tokens = await client.exchangeCode({ code, redirectUri, codeVerifier: verifier });
    expect(tokens).toMatchObject({ expiresIn: 1800, scope: 'offline_access' });
    expect(tokens.refreshToken).toMatch(/^rt-/);
    const renewed = await client.refresh(tokens.refreshToken!);
    expect(renewed.accessToken).not.toBe(tokens.accessToken);
    await expect(client.refresh(tokens.refreshToken!)).rejects.toMatchObject({
      carfaxCode: 'UNAUTHORIZED',
      oauthError: 'invalid_grant',
    });
    await client.revoke(renewed.refreshToken!, 'refresh_token');
    expect(carfax.revoked).toContain(renewed.refreshToken);
    const last = carfax.requests.at(-1)!;
    expect(last.form).toEqual({ token: renewed.refreshToken, token_type_hint: 'refresh_token' });
    expect(client.logoutUrl({ returnTo: 'https://dealerpass.example/account/carfax/logout' })).toBe(
      `${carfax.url}/v2/logout?client_id=dealerpass-prod&returnTo=${encodeURIComponent('https://dealerpass.example/account/carfax/logout')}`,
    );
  });

  it.each([
    [500, { error: 'server_error' }, 'INTERNAL_SERVER_ERROR'],
    [502, 'gateway', 'GENERIC_SERVER_ERROR'],
    [429, {}, 'RATE_LIMIT_EXCEEDED'],
    [403, { error: 'access_denied', code: 'QUOTA_EXCEEDED' }, 'QUOTA_EXCEEDED'],
    [401, { error: 'invalid_client' }, 'INVALID_PARTNER_ACCOUNT'],
    [200, { token_type: 'Bearer' }, 'GENERIC_SERVER_ERROR'],
  ])('an answer %i %j is the Carfax code %s', async (status, body, code) => {
    carfax.failNext(status, body);
    await expect(client.refresh('rt-any')).rejects.toMatchObject({ carfaxCode: code });
  });

  it('an unreachable or silent Carfax is SERVICE_DOWN', async () => {
    carfax.hangNext();
    await expect(client.refresh('rt-any')).rejects.toMatchObject({ carfaxCode: 'SERVICE_DOWN' });
    const nowhere = createCarfaxClient({
      kind: 'carfax',
      clientId: 'x',
      clientSecret: 'y',
      authorizeUrl: 'http://127.0.0.1:9/authorize',
      tokenUrl: 'http://127.0.0.1:9/oauth/token',
      revokeUrl: 'http://127.0.0.1:9/oauth/revoke',
      logoutUrl: 'http://127.0.0.1:9/logout',
      scope: 'offline_access',
      timeoutMs: 500,
    });
    const error = await nowhere.revoke('t', 'access_token').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CarfaxProviderError);
    expect((error as CarfaxProviderError).carfaxCode).toBe('SERVICE_DOWN');
  });

  it('the AutoCheck adapter: valid, invalid (401), unavailable (5xx, unreachable)', async () => {
    const verifier = createAutoCheckApiVerifier({
      kind: 'autocheck',
      verifyUrl: autoCheck.url,
      apiKey: autoCheck.apiKey,
      timeoutMs: 500,
    });
    expect(
      await verifier.verifyCredentials({ autoCheckId: 'AC-REAL-1', password: 'Real!Pass1' }),
    ).toBe('valid');
    expect(await verifier.verifyCredentials({ autoCheckId: 'AC-REAL-1', password: 'nope' })).toBe(
      'invalid',
    );
    await expect(
      verifier.verifyCredentials({ autoCheckId: 'AC-DOWN', password: 'x' }),
    ).rejects.toThrow(/500/);
    const nowhere = createAutoCheckApiVerifier({
      kind: 'autocheck',
      verifyUrl: 'http://127.0.0.1:9/verify',
      apiKey: 'k',
      timeoutMs: 500,
    });
    await expect(nowhere.verifyCredentials({ autoCheckId: 'a', password: 'b' })).rejects.toThrow(
      /reached/,
    );
  });

  describe('the app configured for them', () => {
    let t: TestApp;
    let offsetMs = 0;
    let cookie = '';
    let token = '';
    const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
      t.app.inject({
        method,
        url,
        headers: {
          cookie,
          'x-csrf-token': token,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      });

    beforeAll(async () => {
      t = await buildTestApp({
        now: () => new Date(Date.now() + offsetMs),
        env: {
          CARFAX_CLIENT_ID: carfax.clientId,
          CARFAX_CLIENT_SECRET: carfax.clientSecret,
          CARFAX_AUTHORIZE_URL: `${carfax.url}/authorize`,
          CARFAX_TOKEN_URL: `${carfax.url}/oauth/token`,
          CARFAX_REVOKE_URL: `${carfax.url}/oauth/revoke`,
          CARFAX_LOGOUT_URL: `${carfax.url}/v2/logout`,
          AUTOCHECK_VERIFY_URL: autoCheck.url,
          AUTOCHECK_API_KEY: autoCheck.apiKey,
        },
      });
      const { user } = await createAccount(t, { email: 'prod@example.com' });
      const rawId = await sessionFor(t, user.id);
      const browser = await t.browser();
      cookie = `${browser.cookie}; ${SESSION_COOKIE}=${rawId}`;
      token = browser.token;
    });
    afterAll(() => t.close());

    it('has no Carfax or AutoCheck sandbox', async () => {
      expect(t.app.config.sandboxes).not.toContain('carfax');
      expect(t.app.config.sandboxes).not.toContain('autocheck');
      const sandboxToken = await t.app.inject({
        method: 'POST',
        url: '/carfax-sandbox/oauth2/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=refresh_token&refresh_token=x',
      });
      expect(sandboxToken.statusCode).toBe(404);
    });

    it('signs in, connects, refreshes and revokes at the configured Carfax', async () => {
      const env = (await api('GET', '/api/v2/config/env')).json().data;
      expect(env.carfaxClientId).toBe('dealerpass-prod');
      const state = randomState((n) => randomBytes(n));
      const start = await api('POST', '/api/v2/oauth/carfax/signin', { state });
      const authorizationUrl = start.json().data.authorizationUrl as string;
      expect(authorizationUrl.startsWith(`${carfax.url}/authorize?`)).toBe(true);
      const code = carfax.authorize(authorizationUrl);
      const connected = await api(
        'GET',
        `/api/v2/oauth/carfax/tokens/${code}/${encodeURIComponent(env.carfaxLoginCallbackUrl)}?state=${state}`,
      );
      expect(connected.statusCode).toBe(200);
      expect((await api('GET', '/api/v2/oauth/carfax/status')).statusCode).toBe(200);

      // A minute later (a refresh right after a sign-in is answered from what we hold).
      offsetMs = 60_000;
      carfax.failNext(503, { error: 'temporarily_unavailable' });
      const failed = await api('POST', '/api/v2/oauth/carfax/refresh');
      expect(failed.statusCode).toBe(502);
      expect(failed.json().message).toBe(carfaxErrorMessage('SERVICE_DOWN'));
      const refreshed = await api('POST', '/api/v2/oauth/carfax/refresh');
      expect(refreshed.statusCode).toBe(200);
      expect(carfax.requests.at(-1)?.form.grant_type).toBe('refresh_token');

      const before = carfax.revoked.length;
      const revoked = await api('POST', '/api/v2/oauth/carfax/revoke');
      expect(revoked.statusCode).toBe(200);
      expect(carfax.revoked.length).toBe(before + 2);
      expect(revoked.json().data.logoutUrl).toContain(
        `${carfax.url}/v2/logout?client_id=dealerpass-prod`,
      );
      expect((await api('GET', '/api/v2/oauth/carfax/status')).statusCode).toBe(404);
    });

    it('checks AutoCheck credentials with the configured AutoCheck', async () => {
      const wrong = await api('PUT', '/api/users/current', {
        autoCheckId: 'AC-REAL-1',
        autoCheckPasswd: 'Wrong!1',
        autoCheckEnabled: true,
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('INVALID_CREDENTIALS');
      const right = await api('PUT', '/api/users/current', {
        autoCheckId: 'AC-REAL-1',
        autoCheckPasswd: 'Real!Pass1',
        autoCheckEnabled: true,
      });
      expect(right.statusCode).toBe(200);
      expect(right.json().data.autoCheckPasswdSet).toBe(true);
    });
  });
});
