import type { TCarfaxErrorCode } from '@dealerpass/domain/messages/carfax-errors';
import { carfaxCodeForFailure } from '@dealerpass/domain/integrations/carfax';

/**
 * The Carfax authorization server as DealerPass uses it (issue 8, docs/decisions/015): a
 * confidential OAuth 2.0 client (RFC 6749) with PKCE S256 (RFC 7636), refresh tokens and
 * revocation (RFC 7009). The same code talks to the embedded sandbox (in process) and to Carfax
 * (over HTTPS); only the endpoints, the credentials and `fetch` differ.
 */
export interface CarfaxEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  logoutUrl: string;
}

/** The one HTTP call shape the client makes: a form POST. */
export type CarfaxFetch = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<Response>;

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
  authorizationUrl(input: { state: string; codeChallenge: string; redirectUri: string }): string;
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
  const doFetch: CarfaxFetch =
    options.fetch ?? ((url, init) => fetch(url, { ...init, redirect: 'error' }));
  const basic = `Basic ${Buffer.from(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  ).toString('base64')}`;

  async function post(url: string, form: Record<string, string>): Promise<Response> {
    try {
      return await doFetch(url, {
        method: 'POST',
        headers: {
          authorization: basic,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams(form).toString(),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (cause) {
      throw new CarfaxProviderError('SERVICE_DOWN', { cause });
    }
  }

  async function failure(response: Response): Promise<CarfaxProviderError> {
    const body = await readJson(response);
    const oauthError = typeof body?.error === 'string' ? body.error : undefined;
    const providerCode = typeof body?.code === 'string' ? body.code : undefined;
    return new CarfaxProviderError(
      carfaxCodeForFailure({ httpStatus: response.status, oauthError, providerCode }),
      { httpStatus: response.status, ...(oauthError ? { oauthError } : {}) },
    );
  }

  async function tokenRequest(form: Record<string, string>): Promise<CarfaxTokenSet> {
    const response = await post(options.tokenUrl, form);
    if (!response.ok) throw await failure(response);
    const body = await readJson(response);
    const accessToken = body?.access_token;
    const tokenType = body?.token_type;
    if (
      typeof accessToken !== 'string' ||
      accessToken === '' ||
      typeof tokenType !== 'string' ||
      tokenType.toLowerCase() !== 'bearer'
    ) {
      throw new CarfaxProviderError('GENERIC_SERVER_ERROR', { httpStatus: response.status });
    }
    const expiresIn = Number(body?.expires_in);
    return {
      accessToken,
      refreshToken: typeof body?.refresh_token === 'string' ? body.refresh_token : null,
      // RFC 6749 makes expires_in optional; without it we assume an hour, and the status
      // endpoint then asks for new tokens in time.
      expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600,
      scope: typeof body?.scope === 'string' ? body.scope : null,
    };
  }

  return {
    kind: options.kind,
    clientId: options.clientId,
    authorizationUrl({ state, codeChallenge, redirectUri }) {
      const url = new URL(options.authorizeUrl);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', options.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('scope', options.scope);
      url.searchParams.set('state', state);
      url.searchParams.set('code_challenge', codeChallenge);
      url.searchParams.set('code_challenge_method', 'S256');
      if (options.audience) url.searchParams.set('audience', options.audience);
      return url.toString();
    },
    exchangeCode: ({ code, redirectUri, codeVerifier }) =>
      tokenRequest({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: codeVerifier,
      }),
    refresh: (refreshToken) =>
      tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    async revoke(token, hint) {
      const response = await post(options.revokeUrl, { token, token_type_hint: hint });
      // RFC 7009 §2.2: 200 whether or not the token was valid.
      if (!response.ok) throw await failure(response);
    },
    logoutUrl({ returnTo }) {
      const url = new URL(options.logoutUrl);
      url.searchParams.set('client_id', options.clientId);
      url.searchParams.set('returnTo', returnTo);
      return url.toString();
    },
  };
}

async function readJson(response: Response): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = await response.json();
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
