import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';

describe('POST /api/log', () => {
  let t: TestApp;
  let browser: TestBrowser;
  beforeAll(async () => {
    t = await buildTestApp();
    browser = await t.browser();
  });
  afterAll(() => t.close());

  it('writes a client 403 report to the structured log with credentials masked', async () => {
    const response = await browser.request({
      method: 'POST',
      url: '/api/log',
      payload: {
        err: 'invalidToken',
        message: 'session ended',
        url: '/account/carfax/login?code=abc123&state=xyz&tab=2',
      },
    });
    expect(response.statusCode).toBe(204);
    const line = t.logs.find((entry) => entry.msg === 'client log');
    expect(line?.client).toEqual({
      err: 'invalidToken',
      message: 'session ended',
      url: '/account/carfax/login?code=***&state=***&tab=2',
    });
    expect(JSON.stringify(t.logs)).not.toContain('abc123');
  });

  it('accepts an event with options', async () => {
    const response = await browser.request({
      method: 'POST',
      url: '/api/log',
      payload: {
        event: 'autocheck updated',
        description: 'auto-purchase enabled',
        url: '/account/autoCheckIntegrations',
        enabled: true,
      },
    });
    expect(response.statusCode).toBe(204);
  });

  it.each([
    ['neither message nor event', { url: '/x' }],
    ['no url', { message: 'hello' }],
    ['a nested object', { message: 'x', url: '/x', extra: { deep: true } }],
    [
      'too many options',
      {
        message: 'x',
        url: '/x',
        ...Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${i}`, i])),
      },
    ],
  ])('refuses %s', async (_name, payload) => {
    const response = await browser.request({ method: 'POST', url: '/api/log', payload });
    expect(response.statusCode).toBe(400);
  });

  it('refuses bodies over 8 KB', async () => {
    const response = await browser.request({
      method: 'POST',
      url: '/api/log',
      payload: { message: 'x'.repeat(9000), url: '/x' },
    });
    expect(response.statusCode).toBe(413);
  });

  it('needs the CSRF token like every other write', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/log',
      headers: { 'content-type': 'application/json' },
      payload: { message: 'x', url: '/x' },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('the request log (issue 13)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const urlsLogged = () =>
    t.logs
      .filter((entry) => entry.msg === 'incoming request')
      .map((entry) => (entry.req as { url: string }).url);

  it('masks one-time codes, states, tokens and ID token hints in query strings and the Carfax callback path', async () => {
    const secrets = {
      oidcCode: 'oidc-code-4f1e9a',
      oidcState: 'oidc-state-7c2d11',
      carfaxCode: 'carfax-code-9b3e07',
      carfaxState: 'carfax-state-1a8f42',
      disguisedCode: 'carfax-code-disguised-5d6c',
      idTokenHint: 'eyJhbGciOiJSUzI1NiJ9.hint-0e4b.sig',
      resetToken: 'reset-token-2b9c5e',
    };
    const requests = [
      `/web/oauth/callback/karid/login?code=${secrets.oidcCode}&state=${secrets.oidcState}&iss=x`,
      `/api/v2/oauth/carfax/tokens/${secrets.carfaxCode}/https%3A%2F%2Fexample.com%2Fcb?state=${secrets.carfaxState}`,
      // The router decodes the path: a disguised one reaches the same route.
      `/api/v2/oauth/carfax/%74okens/${secrets.disguisedCode}/x`,
      `/oidc/session/end?id_token_hint=${secrets.idTokenHint}`,
      `/identity/reset-password?token=${secrets.resetToken}&tab=2`,
    ];
    for (const url of requests) await t.app.inject({ method: 'GET', url });

    const logged = urlsLogged();
    expect(logged).toHaveLength(requests.length);
    expect(logged).toContain(
      '/api/v2/oauth/carfax/tokens/***/https%3A%2F%2Fexample.com%2Fcb?state=***',
    );
    expect(logged).toContain('/identity/reset-password?token=***&tab=2');
    const everything = JSON.stringify(t.logs);
    for (const [name, secret] of Object.entries(secrets)) {
      expect(everything.includes(secret), `${name} in the log`).toBe(false);
    }
  });

  it('logs other URLs as they are', async () => {
    await t.app.inject({ method: 'GET', url: '/api/health?verbose=1' });
    expect(urlsLogged().at(-1)).toBe('/api/health?verbose=1');
  });
});
