import * as oauth from 'openid-client';
import type { TCarfaxErrorCode } from '@dealerpass/domain/messages/carfax-errors';
import { carfaxCodeForFailure } from '@dealerpass/domain/integrations/carfax';

/**
 * The Carfax authorization server as DealerPass uses it (issue 8, docs/decisions/015): a
 * confidential OAuth 2.0 client (RFC 6749) with PKCE S256 (RFC 7636), refresh tokens and
 * revocation (RFC 7009), built on openid-client as the sign-in's relying party is; only the
 * mapping of failures onto Carfax's codes (001 §8) is ours. The same code talks to the embedded
 * sandbox (in process) and to Carfax (over HTTPS); only the endpoints, the credentials and
 * `fetch` differ.
 */
export interface CarfaxEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  logoutUrl: string;
}

/** How the client reaches the endpoints (openid-client's fetch hook; tests hand in a double's). */
export type CarfaxFetch = oauth.CustomFetch;

export interface CarfaxClientOptions extends CarfaxEndpoints {
  kind: 'sandbox' | 'carfax';
  clientId: string;
  clientSecret: string;
  scope: string;
  audience?: string | undefined;
  timeoutMs: number;
  fetch?: CarfaxFetch;
}

export interface CarfaxTokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** Seconds the access token lives, as the provider said (RFC 6749 §5.1). */
  expiresIn: number;
  scope: string | null;
}

/** A provider call that failed, with the Carfax code (001 §8) it maps to. Never carries a token. */
export class CarfaxProviderError extends Error {
  override name = 'CarfaxProviderError';
  readonly carfaxCode: TCarfaxErrorCode;
  readonly httpStatus: number | undefined;
  readonly oauthError: string | undefined;
  constructor(
    carfaxCode: TCarfaxErrorCode,
    details: { httpStatus?: number; oauthError?: string; cause?: unknown } = {},
  ) {
    super(`Carfax call failed: ${carfaxCode}`, { cause: details.cause });
    this.carfaxCode = carfaxCode;
    this.httpStatus = details.httpStatus;
    this.oauthError = details.oauthError;
  }
}

export interface CarfaxClient {
  readonly kind: 'sandbox' | 'carfax';
  readonly clientId: string;
  /** The authorization URL for a sign-in, with the S256 challenge of this PKCE verifier. */
  authorizationUrl(input: {
    state: string;
    codeVerifier: string;
    redirectUri: string;
  }): Promise<string>;
  exchangeCode(input: {
    code: string;
    redirectUri: string;
    codeVerifier: string;
  }): Promise<CarfaxTokenSet>;
  refresh(refreshToken: string): Promise<CarfaxTokenSet>;
  revoke(token: string, hint: 'access_token' | 'refresh_token'): Promise<void>;
  logoutUrl(input: { returnTo: string }): string;
}

export function createCarfaxClient(options: CarfaxClientOptions): CarfaxClient {
  // Carfax publishes no discovery document: the metadata is the configured endpoints.
  const config = new oauth.Configuration(
    {
      issuer: new URL(options.authorizeUrl).origin,
      authorization_endpoint: options.authorizeUrl,
      token_endpoint: options.tokenUrl,
      revocation_endpoint: options.revokeUrl,
    },
    options.clientId,
    undefined,
    basicAuthentication(options.clientSecret),
  );
  config.timeout = Math.max(1, Math.ceil(options.timeoutMs / 1000));
  if (options.fetch) config[oauth.customFetch] = options.fetch;
  // The sandbox is reached in process over our own http origin; Carfax itself over HTTPS.
  if (options.tokenUrl.startsWith('http://')) oauth.allowInsecureRequests(config);

  /** Runs a provider call, turning every failure into Carfax's code; no token in an error. */
  async function call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw await providerError(error);
    }
  }

  const tokenSet = (tokens: oauth.TokenEndpointResponse): CarfaxTokenSet => ({
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token ?? null,
    // RFC 6749 makes expires_in optional; without it we assume an hour, and the status
    // endpoint then asks for new tokens in time.
    expiresIn:
      typeof tokens.expires_in === 'number' && tokens.expires_in > 0 ? tokens.expires_in : 3600,
    scope: tokens.scope ?? null,
  });

  return {
    kind: options.kind,
    clientId: options.clientId,
    async authorizationUrl({ state, codeVerifier, redirectUri }) {
      return oauth.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: options.scope,
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        ...(options.audience ? { audience: options.audience } : {}),
      }).href;
    },
    exchangeCode: ({ code, redirectUri, codeVerifier }) =>
      call(async () => {
        // The callback as Carfax sent it: our redirect URI with the code (the state was checked
        // by our server before this call).
        const callback = new URL(redirectUri);
        callback.searchParams.set('code', code);
        return tokenSet(
          await oauth.authorizationCodeGrant(config, callback, {
            pkceCodeVerifier: codeVerifier,
            idTokenExpected: false,
          }),
        );
      }),
    refresh: (refreshToken) =>
      call(async () => tokenSet(await oauth.refreshTokenGrant(config, refreshToken))),
    revoke: (token, hint) =>
      call(() => oauth.tokenRevocation(config, token, { token_type_hint: hint })),
    logoutUrl({ returnTo }) {
      const url = new URL(options.logoutUrl);
      url.searchParams.set('client_id', options.clientId);
      url.searchParams.set('returnTo', returnTo);
      return url.toString();
    },
  };
}

/**
 * HTTP Basic client authentication with each part percent-encoded as a URI component, as this
 * client has always sent it to Carfax (openid-client's own also encodes `-`, `.`, `_` and `~`,
 * which an authorization server comparing the raw header would refuse).
 */
function basicAuthentication(clientSecret: string): oauth.ClientAuth {
  return (_server, client, _body, headers) => {
    const credentials = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(clientSecret)}`;
    headers.set('authorization', `Basic ${Buffer.from(credentials).toString('base64')}`);
  };
}

/**
 * Carfax's code for a failed call (001 §8): the provider's own `code` when it sends one, else
 * from the OAuth error and the HTTP status; no answer at all is SERVICE_DOWN.
 */
async function providerError(error: unknown): Promise<CarfaxProviderError> {
  if (error instanceof CarfaxProviderError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    const body = error.cause as Record<string, unknown> | undefined;
    const providerCode = typeof body?.code === 'string' ? body.code : undefined;
    return new CarfaxProviderError(
      carfaxCodeForFailure({ httpStatus: error.status, oauthError: error.error, providerCode }),
      { httpStatus: error.status, oauthError: error.error },
    );
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const oauthError = error.cause[0]?.parameters.error;
    return new CarfaxProviderError(carfaxCodeForFailure({ httpStatus: error.status, oauthError }), {
      httpStatus: error.status,
      ...(oauthError ? { oauthError } : {}),
    });
  }
  const cause = (error as { cause?: unknown }).cause;
  // An answer openid-client does not take as an OAuth error (a 5xx, an HTML page): the status,
  // and the OAuth error or Carfax code if its body has them after all.
  if (cause instanceof Response) {
    const body = await cause
      .clone()
      .json()
      .catch(() => null);
    const fields =
      typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const oauthError = typeof fields.error === 'string' ? fields.error : undefined;
    const providerCode = typeof fields.code === 'string' ? fields.code : undefined;
    return new CarfaxProviderError(
      carfaxCodeForFailure({ httpStatus: cause.status, oauthError, providerCode }),
      { httpStatus: cause.status, ...(oauthError ? { oauthError } : {}) },
    );
  }
  // No answer at all: refused, reset, or silent past the timeout.
  const code = (error as { code?: unknown }).code;
  if (error instanceof TypeError || code === 'OAUTH_TIMEOUT' || isAbort(error) || isAbort(cause)) {
    return new CarfaxProviderError('SERVICE_DOWN', { cause: error });
  }
  return new CarfaxProviderError('GENERIC_SERVER_ERROR', { cause: error });
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}
