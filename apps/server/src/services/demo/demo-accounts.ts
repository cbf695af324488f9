/**
 * The demo sign-ins (issue 4, README "Demo accounts"): one account per state, seeded on an empty
 * database in the demo configuration. Plain data with no imports, so browser tests can read it.
 */

/** Meets the password rule of 001 §5. Demo data only: never configured for a real deployment. */
export const DEMO_PASSWORD = 'Demo!Pass2026';

export type TDemoAccountKey =
  | 'active'
  | 'pendingCancel'
  | 'inactive'
  | 'validatingPayment'
  | 'blocked'
  | 'complimentary'
  | 'migrated';

export interface IDemoAccount {
  key: TDemoAccountKey;
  /** What the account shows, for the README and test names. */
  label: string;
  /** 'email' signs in with a DealerPass ID; 'legacy' with the migrated username (R6). */
  method: 'email' | 'legacy';
  /** The e-mail (method 'email') or legacy username (method 'legacy') typed at sign-in. */
  signIn: string;
  password: string;
  /** `accountStatus` of 000 §3. */
  state: string;
  /** `accountStatusDetails`, where it matters. */
  details?: string;
}

export const DEMO_ACCOUNTS: readonly IDemoAccount[] = [
  {
    key: 'active',
    label: 'Active, with Carfax and AutoCheck (plus NADA and MMR)',
    method: 'email',
    signIn: 'active@example.com',
    password: DEMO_PASSWORD,
    state: 'active',
  },
  {
    key: 'pendingCancel',
    label: 'Pending cancel: cancelled, running until the next bill date',
    method: 'email',
    signIn: 'pending-cancel@example.com',
    password: DEMO_PASSWORD,
    state: 'pending cancel',
  },
  {
    key: 'inactive',
    label: 'Inactive, with the previous card on file',
    method: 'email',
    signIn: 'inactive@example.com',
    password: DEMO_PASSWORD,
    state: 'inactive',
  },
  {
    key: 'validatingPayment',
    label: 'Validating payment: the last renewal failed, a balance is owed',
    method: 'email',
    signIn: 'validating-payment@example.com',
    password: DEMO_PASSWORD,
    state: 'validating payment',
  },
  {
    key: 'blocked',
    label: 'Blocked',
    method: 'email',
    signIn: 'blocked@example.com',
    password: DEMO_PASSWORD,
    state: 'blocked',
  },
  {
    key: 'complimentary',
    label: 'Complimentary (no charges, balance hidden)',
    method: 'email',
    signIn: 'complimentary@example.com',
    password: DEMO_PASSWORD,
    state: 'active',
    details: 'complimentary',
  },
  {
    key: 'migrated',
    label: 'Migrated, no DealerPass ID yet (deadline in 10 days)',
    method: 'legacy',
    signIn: 'migrated.dealer',
    password: DEMO_PASSWORD,
    state: 'active',
  },
];
