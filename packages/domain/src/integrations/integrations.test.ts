import { describe, expect, it } from 'vitest';
import { integrationAccess, canUseIntegration } from './integration-access.ts';
import {
  carfaxCodeForFailure,
  carfaxRefreshDelayMs,
  ZCarfaxSignInRequestSchema,
} from './carfax.ts';

describe('integration access (000 §2, §6)', () => {
  const account = (accountStatus: string, subscriptions: string[]) => ({
    accountStatus,
    subscriptions,
  });

  it.each([
    ['active', ['CF', 'AC'], 'CF', 'allowed'],
    ['pending cancel', ['CF'], 'CF', 'allowed'],
    ['validating payment', ['AC'], 'AC', 'allowed'],
    ['active', ['AC'], 'CF', 'not-held'],
    ['active', ['CF'], 'AC', 'not-held'],
    ['inactive', ['CF', 'AC'], 'CF', 'inactive'],
    ['INACTIVE', ['CF', 'AC'], 'AC', 'inactive'],
    ['', ['CF'], 'CF', 'inactive'],
    ['blocked', ['CF', 'AC'], 'CF', 'blocked'],
  ] as const)('%s holding %j asks for %s → %s', (status, codes, code, expected) => {
    expect(integrationAccess(account(status, [...codes]), code)).toBe(expected);
    expect(canUseIntegration(account(status, [...codes]), code)).toBe(expected === 'allowed');
  });

  it('reads a blocked description too', () => {
    expect(
      integrationAccess(
        {
          accountStatus: 'active',
          subscriptionStatusDescription: 'Blocked',
          subscriptions: ['CF'],
        },
        'CF',
      ),
    ).toBe('blocked');
  });
});

describe('Carfax failures as 001 §8 codes', () => {
  it.each([
    [{ providerCode: 'INACTIVE_DEALER', httpStatus: 403 }, 'INACTIVE_DEALER'],
    [{ providerCode: 'NOT_A_CODE', oauthError: 'invalid_grant' }, 'UNAUTHORIZED'],
    [{ network: true }, 'SERVICE_DOWN'],
    [{ httpStatus: 429 }, 'RATE_LIMIT_EXCEEDED'],
    [{ oauthError: 'invalid_client', httpStatus: 401 }, 'INVALID_PARTNER_ACCOUNT'],
    [{ oauthError: 'unauthorized_client' }, 'INVALID_PARTNER_COMP_CODE'],
    [{ oauthError: 'access_denied' }, 'UNAUTHORIZED_USER'],
    [{ oauthError: 'invalid_scope' }, 'UNAUTHORIZED_USER'],
    [{ oauthError: 'invalid_request' }, 'MISSING_DATA'],
    [{ oauthError: 'unsupported_grant_type' }, 'MISSING_DATA'],
    [{ oauthError: 'temporarily_unavailable' }, 'SERVICE_DOWN'],
    [{ oauthError: 'server_error' }, 'INTERNAL_SERVER_ERROR'],
    [{ httpStatus: 502 }, 'GENERIC_SERVER_ERROR'],
    [{ httpStatus: 401 }, 'UNAUTHORIZED'],
    [{ httpStatus: 400 }, 'UNSPECIFIED_ERROR'],
    [{}, 'UNSPECIFIED_ERROR'],
  ] as const)('%j → %s', (failure, code) => {
    expect(carfaxCodeForFailure(failure)).toBe(code);
  });
});

describe('Carfax refresh timing', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  it('renews a minute before the access token expires', () => {
    expect(carfaxRefreshDelayMs('2026-01-01T13:00:00Z', now)).toBe(59 * 60_000);
  });
  it('renews at once when the token is close to or past expiry, or unreadable', () => {
    expect(carfaxRefreshDelayMs('2026-01-01T12:00:30Z', now)).toBe(0);
    expect(carfaxRefreshDelayMs('2026-01-01T11:00:00Z', now)).toBe(0);
    expect(carfaxRefreshDelayMs('soon', now)).toBe(0);
  });
});

describe('Carfax sign-in request', () => {
  it('takes a 64-character base-36 state only', () => {
    expect(ZCarfaxSignInRequestSchema.safeParse({ state: 'a'.repeat(64) }).success).toBe(true);
    expect(ZCarfaxSignInRequestSchema.safeParse({ state: 'a'.repeat(63) }).success).toBe(false);
    expect(ZCarfaxSignInRequestSchema.safeParse({ state: 'A'.repeat(64) }).success).toBe(false);
  });
});
