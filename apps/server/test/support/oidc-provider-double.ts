import type { JWTPayload } from 'jose';
import type { CustomFetch } from 'openid-client';

/**
 * A stand-in for an external OpenID provider, speaking the protocol through the relying party's
 * fetch: discovery, JWKS and a token endpoint whose ID token each test shapes.
 */
export function createProviderDouble(
  publicJwk: Record<string, unknown>,
  identity: { issuer: string; clientId: string; subject: string },
) {
  const { issuer: ISSUER, clientId: CLIENT_ID } = identity;
  const state: {
    sign: (claims: JWTPayload) => Promise<string>;
    claims: JWTPayload;
    codes: Set<string>;
  } = {
    sign: async () => '',
    claims: {},
    codes: new Set(),
  };
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch: CustomFetch = async (url, options) => {
    const target = new URL(url);
    if (target.pathname === '/.well-known/openid-configuration') {
      return json({
        issuer: ISSUER,
        authorization_endpoint: `${ISSUER}/auth`,
        token_endpoint: `${ISSUER}/token`,
        jwks_uri: `${ISSUER}/jwks`,
        end_session_endpoint: `${ISSUER}/session/end`,
        revocation_endpoint: `${ISSUER}/revoke`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (target.pathname === '/jwks') return json({ keys: [publicJwk] });
    if (target.pathname === '/revoke') return new Response(null, { status: 200 });
    if (target.pathname === '/token') {
      const form = new URLSearchParams(String(options.body));
      const code = form.get('code') ?? '';
      if (!state.codes.delete(code)) return json({ error: 'invalid_grant' }, 400); // codes are single use
      const now = Math.floor(Date.now() / 1000);
      const idToken = await state.sign({
        iss: ISSUER,
        aud: CLIENT_ID,
        sub: identity.subject,
        iat: now,
        exp: now + 300,
        ...state.claims,
      });
      return json({
        access_token: 'at-1',
        refresh_token: 'rt-1',
        token_type: 'Bearer',
        expires_in: 300,
        id_token: idToken,
      });
    }
    return json({ error: 'not_found' }, 404);
  };
  return { state, fetch };
}
