/**
 * The Carfax connection (000 §2, §4, §7; 001 §4, §7, §8): endpoint paths, request and response
 * shapes, the mapping of a provider's OAuth failure onto the Carfax error codes, and the texts of
 * the Carfax pages that the specification only describes.
 */
import { z } from 'zod';
import { isCarfaxErrorCode, type TCarfaxErrorCode } from '../messages/carfax-errors.ts';
import { STATE_PATTERN } from '../random-state.ts';

/** 001 §7 endpoint constants, plus the sign-in start and the environment configuration. */
export const CARFAX_API = {
  tokens: '/api/v2/oauth/carfax/tokens',
  refresh: '/api/v2/oauth/carfax/refresh',
  revoke: '/api/v2/oauth/carfax/revoke',
  status: '/api/v2/oauth/carfax/status',
  /** Ours: the server keeps the PKCE verifier, so it builds the provider's authorization URL. */
  signIn: '/api/v2/oauth/carfax/signin',
} as const;
export const CONFIG_ENV_PATH = '/api/v2/config/env';

/** `GET /api/v2/config/env` (000 §7): the Carfax client id and the two callback URLs. */
export interface IEnvConfig {
  carfaxClientId: string;
  carfaxLoginCallbackUrl: string;
  carfaxLogoutCallbackUrl: string;
}

/** `POST /api/v2/oauth/carfax/signin`: the state the browser stored (000 §4). */
export const ZCarfaxSignInRequestSchema = z.object({
  state: z.string().regex(STATE_PATTERN),
});
export type TCarfaxSignInRequest = z.infer<typeof ZCarfaxSignInRequestSchema>;

/** `GET …/tokens/{code}/{encoded login callback URL}?state=`: what the callback read. */
export const ZCarfaxTokensParamsSchema = z.object({
  code: z.string().min(1).max(2048),
  redirectUri: z.string().min(1).max(2048),
});
export const ZCarfaxTokensQuerySchema = z.object({
  state: z.string().regex(STATE_PATTERN),
});

/** The connection as the API shows it: never a token (R7), only whether and until when. */
export interface ICarfaxConnectionStatus {
  status: 'connected';
  accessTokenExpiresAt: string;
  connectedAt: string;
}

/** Renew this long before the access token expires (issue 8: "/refresh renews tokens before they expire"). */
export const CARFAX_REFRESH_MARGIN_MS = 60_000;

/** When the page should ask for new tokens: a margin before the access token expires, never in the past. */
export function carfaxRefreshDelayMs(accessTokenExpiresAt: string, nowMs: number): number {
  const expires = Date.parse(accessTokenExpiresAt);
  if (Number.isNaN(expires)) return 0;
  return Math.max(0, expires - CARFAX_REFRESH_MARGIN_MS - nowMs);
}

/**
 * A provider's failure as a Carfax error code (001 §8). A provider that names one of the codes
 * is taken at its word; otherwise the OAuth 2.0 error (RFC 6749 §5.2, §4.1.2.1) and the HTTP
 * status decide.
 */
export function carfaxCodeForFailure(failure: {
  httpStatus?: number | undefined;
  oauthError?: string | undefined;
  providerCode?: string | undefined;
  network?: boolean;
}): TCarfaxErrorCode {
  if (isCarfaxErrorCode(failure.providerCode)) return failure.providerCode;
  if (failure.network) return 'SERVICE_DOWN';
  const status = failure.httpStatus ?? 0;
  if (status === 429) return 'RATE_LIMIT_EXCEEDED';
  switch (failure.oauthError) {
    case 'invalid_client':
      return 'INVALID_PARTNER_ACCOUNT';
    case 'unauthorized_client':
      return 'INVALID_PARTNER_COMP_CODE';
    case 'invalid_grant':
    case 'login_required':
      return 'UNAUTHORIZED';
    case 'access_denied':
    case 'invalid_scope':
    case 'consent_required':
      return 'UNAUTHORIZED_USER';
    case 'invalid_request':
    case 'unsupported_grant_type':
    case 'unsupported_response_type':
      return 'MISSING_DATA';
    case 'temporarily_unavailable':
      return 'SERVICE_DOWN';
    case 'server_error':
      return 'INTERNAL_SERVER_ERROR';
    default:
      break;
  }
  if (status >= 500) return 'GENERIC_SERVER_ERROR';
  if (status === 401 || status === 403) return 'UNAUTHORIZED';
  return 'UNSPECIFIED_ERROR';
}

/** Texts of the Carfax pages (000 §2 describes the pages, quotes none of these). */
export const CARFAX_TEXTS = {
  integrationsHeading: 'Carfax integration',
  statusHeading: 'Carfax login status',
  intro:
    'Connect your Carfax account to open Carfax vehicle history reports from DealerPass. You sign in at Carfax; DealerPass never sees your Carfax password.',
  connected: 'Connected to Carfax',
  notConnected: 'Not connected to Carfax',
  expired: 'Your Carfax sign-in has expired',
  signIn: 'Sign in to Carfax',
  signOut: 'Sign out of Carfax',
  signingIn: 'Taking you to Carfax…',
  signingOut: 'Signing you out of Carfax…',
  checking: 'Checking your Carfax connection…',
  finishing: 'Finishing your Carfax sign-in…',
  stateMismatch:
    'The Carfax sign-in could not be verified, so it was not used. Please sign in to Carfax again.',
  missingCode: 'Carfax did not send a sign-in code. Please sign in to Carfax again.',
  signedOut: 'You have been signed out of Carfax.',
  statusUnknown: 'The Carfax connection could not be checked. Please try again.',
} as const;
