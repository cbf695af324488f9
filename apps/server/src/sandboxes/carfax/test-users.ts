/**
 * The Carfax sandbox's test users (README "Carfax sandbox", docs/decisions/015). Plain data so the
 * browser tests can read it. Sandbox only: these never exist at the real Carfax.
 */
export interface ICarfaxSandboxUser {
  /** The OAuth subject. */
  id: string;
  email: string;
  password: string;
  name: string;
  /** How long this user's access tokens live. */
  accessTokenTtlSeconds: number;
  /** A Carfax code (001 §8) the token endpoint answers instead of tokens, to show its message. */
  failure?: 'INACTIVE_DEALER' | 'QUOTA_EXCEEDED';
}

export const CARFAX_SANDBOX_PASSWORD = 'Carfax!Sandbox1';

export const CARFAX_SANDBOX_USERS: readonly ICarfaxSandboxUser[] = [
  {
    id: 'cfx-dealer-1001',
    email: 'dealer@carfax.example',
    password: CARFAX_SANDBOX_PASSWORD,
    name: 'Sandbox Dealer',
    accessTokenTtlSeconds: 3600,
  },
  {
    id: 'cfx-dealer-1002',
    email: 'short-lived@carfax.example',
    password: CARFAX_SANDBOX_PASSWORD,
    name: 'Short-Lived Tokens',
    accessTokenTtlSeconds: 120,
  },
  {
    id: 'cfx-dealer-1003',
    email: 'inactive-dealer@carfax.example',
    password: CARFAX_SANDBOX_PASSWORD,
    name: 'Inactive Dealer',
    accessTokenTtlSeconds: 3600,
    failure: 'INACTIVE_DEALER',
  },
];

/** Refresh tokens of every sandbox user live this long. */
export const CARFAX_SANDBOX_REFRESH_TTL_SECONDS = 30 * 24 * 3600;
