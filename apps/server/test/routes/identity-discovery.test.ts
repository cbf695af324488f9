import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEALER_CLIENT_ID } from '../../src/identity/provider/embedded-provider.ts';
import { LOGIN_CALLBACK_PATH } from '../../src/plugins/identity.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';

/**
 * Issue 27 #8 (docs/decisions/038): the embedded provider advertises only what its clients use
 * (RFC 9700 §2.1.2: no implicit flow), and refuses the rest with the error RFC 6749 names.
 */
describe('the embedded provider’s discovery document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const discovery = async () =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/oidc/.well-known/openid-configuration',
        headers: { host: 'localhost:3000' },
      })
    ).json();

  it('advertises the code flow and client_secret_basic only, no PAR, DPoP or request objects', async () => {
    const doc = await discovery();
    expect(doc.response_types_supported).toEqual(['code']);
    expect(doc.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic']);
    for (const endpoint of ['revocation', 'introspection']) {
      const methods = doc[`${endpoint}_endpoint_auth_methods_supported`];
      if (methods !== undefined) expect(methods).toEqual(['client_secret_basic']);
    }
    expect(doc.grant_types_supported).toEqual(['authorization_code', 'refresh_token']);
    expect(doc).not.toHaveProperty('pushed_authorization_request_endpoint');
    expect(doc).not.toHaveProperty('require_pushed_authorization_requests');
    expect(doc).not.toHaveProperty('dpop_signing_alg_values_supported');
  });

  /** An authorization request of the dealers' client, as its browser would send it. */
  async function authorize(params: Record<string, string>) {
    const query = new URLSearchParams({
      client_id: DEALER_CLIENT_ID,
      redirect_uri: `${t.app.config.publicUrl}${LOGIN_CALLBACK_PATH}`,
      scope: 'openid',
      state: 'st',
      nonce: 'n0',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      ...params,
    });
    const answer = await t.app.inject({
      method: 'GET',
      url: `/oidc/auth?${query}`,
      headers: { host: 'localhost:3000' },
    });
    expect(answer.statusCode).toBe(303);
    const to = new URL(answer.headers.location as string);
    // An error goes back to the client in the query (or fragment, for a response type that asks it).
    return new URLSearchParams(to.hash ? to.hash.slice(1) : to.search);
  }

  it.each(['id_token', 'id_token token', 'code id_token', 'code token', 'none'])(
    'refuses response_type=%s with unsupported_response_type',
    async (responseType) => {
      const answer = await authorize({ response_type: responseType });
      expect(answer.get('error')).toBe('unsupported_response_type');
      expect(answer.get('state')).toBe('st');
    },
  );
});
