import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { CARFAX_SANDBOX_CLIENT_ID } from '../../src/sandboxes/carfax/sandbox-authorization-server.ts';
import { serializeError } from '../../src/lib/serialize-error.ts';

/**
 * Bad input answers 4xx, never 5xx, and a failed query never reaches the log with its values
 * (issue 13 #4). The fuzz sweep (sweep-fuzz.test.ts) covers every route; these are the cases the
 * outside test reported, one by one.
 */
describe('bad input', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let address = 0;
  const nextAddress = () => `10.13.4.${(address += 1)}`;

  beforeAll(async () => {
    t = await buildTestApp();
    browser = await t.browser();
  });
  afterAll(() => t.close());

  async function lead(overrides: Record<string, string>) {
    return browser.request({
      method: 'POST',
      url: '/api/signup/contact',
      remoteAddress: nextAddress(),
      payload: JSON.stringify({
        firstName: 'Pat',
        lastName: 'Dealer',
        email: 'nul-lead@example.com',
        phone: '313-555-0142',
        dealershipName: 'Pat Motors',
        termAndCondition: new Date().toISOString(),
        recaptcha: await t.solveCaptcha(),
        ...overrides,
      }),
    });
  }

  it.each([
    ['a NUL byte', 'F\u0000x'],
    ['a lone surrogate', 'F\ud800x'],
  ])('refuses %s in a JSON text field with 400, and logs no error', async (_name, firstName) => {
    const errorsBefore = t.logs.filter((line) => (line.level as number) >= 50).length;
    const response = await lead({ firstName });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ source: 'firstName' }],
    });
    expect(t.logs.filter((line) => (line.level as number) >= 50)).toHaveLength(errorsBefore);
  });

  it('refuses a NUL byte in a partial sign-up save, whatever the step schema', async () => {
    const created = await lead({});
    expect(created.statusCode).toBe(201);
    const id = created.json<{ data: { id: string } }>().data.id;
    const response = await browser.request({
      method: 'PATCH',
      url: `/api/signup/detail/update/${id}/1`,
      remoteAddress: nextAddress(),
      payload: JSON.stringify({ firstName: 'F\u0000x' }),
    });
    expect(response.statusCode).toBe(400);
  });

  it.each([
    ['a path parameter', '/api/users/userIdTaken/a%00b%40example.com'],
    ['a query parameter', '/login?hint=a%00b%40example.com'],
    ["the provider's client_id", '/oidc/auth?client_id=%00&response_type=code&scope=openid'],
    ["the provider's client_id, as invalid UTF-8", '/oidc/auth?client_id=%ED%A0%80'],
  ])('refuses a NUL byte in %s with 400', async (_name, url) => {
    const response = await t.app.inject({ method: 'GET', url, remoteAddress: nextAddress() });
    expect(response.statusCode).toBe(400);
  });

  it.each([
    ['client_id', 'client_id=a%00b&grant_type=authorization_code&code=x&redirect_uri=x'],
    ['code', 'grant_type=authorization_code&code=a%00b&redirect_uri=x'],
    ['token', 'token=a%00b&token_type_hint=access_token'],
  ])("refuses a NUL byte in the provider's form body (%s) with 400", async (_name, payload) => {
    for (const path of ['/oidc/token', '/oidc/token/revocation']) {
      const response = await t.app.inject({
        method: 'POST',
        url: path,
        remoteAddress: nextAddress(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
      expect(response.statusCode).toBe(400);
    }
  });

  describe('the Carfax sandbox client authentication (RFC 6749 §5.2)', () => {
    const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
    for (const endpoint of ['token', 'revoke']) {
      const url = `/carfax-sandbox/oauth2/${endpoint}`;
      it.each([
        ['bad percent-encoding', basic('%:x')],
        ['a bad escape in the secret', basic('client:%E0%A4%A')],
        ['no colon', basic('client')],
        ['a NUL byte', basic('a%00:b')],
      ])(
        `${endpoint}: Basic credentials with %s → 401 invalid_client`,
        async (_n, authorization) => {
          const response = await t.app.inject({
            method: 'POST',
            url,
            remoteAddress: nextAddress(),
            headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
            payload: 'grant_type=refresh_token&refresh_token=x&token=x',
          });
          expect(response.statusCode).toBe(401);
          expect(response.json()).toMatchObject({ error: 'invalid_client' });
        },
      );

      it(`${endpoint}: a client secret that is not a string → 401 invalid_client`, async () => {
        const response = await t.app.inject({
          method: 'POST',
          url,
          remoteAddress: nextAddress(),
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({
            client_id: CARFAX_SANDBOX_CLIENT_ID,
            client_secret: { length: 1 },
            grant_type: 'refresh_token',
            refresh_token: 'x',
            token: 'x',
          }),
        });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toMatchObject({ error: 'invalid_client' });
      });
    }
  });

  describe('a failed query in the log', () => {
    /** What drizzle throws: the engine's error as cause, the query and its values in the message. */
    function failedQuery(code = '23505') {
      const engine = Object.assign(
        new Error('duplicate key value violates unique constraint "users_email_key"'),
        {
          code,
          severity: 'ERROR',
          detail: 'Key (email)=(victim@example.com) already exists.',
          table: 'users',
          constraint: 'users_email_key',
        },
      );
      const query = 'insert into "users" ("first_name", "email") values ($1, $2)';
      const params = ['Victoria', 'victim@example.com'];
      return Object.assign(new Error(`Failed query: ${query}\nparams: ${params.join(',')}`), {
        query,
        params,
        cause: engine,
      });
    }

    it('keeps the SQLSTATE and the constraint, and no value', () => {
      const serialized = JSON.stringify(serializeError(failedQuery()));
      expect(serialized).toContain('23505');
      expect(serialized).toContain('users_email_key');
      expect(serialized).not.toMatch(/victim|Victoria|Failed query|params/);
    });

    it('also when the failed query is the cause of another error', () => {
      const wrapped = new Error('could not save the lead', { cause: failedQuery() });
      const serialized = JSON.stringify(serializeError(wrapped));
      expect(serialized).toContain('could not save the lead');
      expect(serialized).toContain('23505');
      expect(serialized).not.toMatch(/victim|Victoria/);
    });

    it('is what the app logs for an unexpected failure', async () => {
      // A unique violation is a 409 naming the field (docs/decisions/028); any other failed
      // query (here a check constraint's, 23514) is unexpected: a 500, its SQLSTATE in the log.
      const app = await buildTestApp({
        routes: (instance) =>
          instance.get('/test/failed-query', { config: { access: 'public' } }, async () => {
            throw failedQuery('23514');
          }),
      });
      try {
        const response = await app.app.inject({ method: 'GET', url: '/test/failed-query' });
        expect(response.statusCode).toBe(500);
        const logged = JSON.stringify(app.logs);
        expect(logged).toContain('23514');
        expect(logged).not.toMatch(/victim|Victoria/);
      } finally {
        await app.close();
      }
    });
  });
});
