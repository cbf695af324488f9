/**
 * Accounts for the browser tests that change an account's state (issue 7: card add, edit and
 * remove, cancel then reactivate, reactivate an inactive account, receipts). Each copies a demo
 * account's profile and state under its own sign-in, so those tests never touch the accounts the
 * per-state test reads. Seeded only with APP_ENV=test (docs/decisions/014): a demo, development or
 * production server never has them. Plain data (importing only the demo list), so browser tests
 * can read it.
 */
import { DEMO_PASSWORD, type IDemoAccount } from './demo-accounts.ts';

export type TE2eAccountKey =
  | 'cardFlows'
  | 'cancelFlow'
  | 'keyboardFlow'
  | 'reactivateFlow'
  | 'changeFlow'
  | 'changeDeclineFlow'
  | 'changeTabsFlow'
  | 'changeNoCardFlow';

export interface IE2eAccount extends IDemoAccount {
  e2eKey: TE2eAccountKey;
}

export const E2E_ACCOUNTS: readonly IE2eAccount[] = [
  {
    e2eKey: 'cardFlows',
    key: 'active',
    label: 'Test only: active, for the profile and card flows',
    method: 'email',
    signIn: 'e2e-card@example.com',
    password: DEMO_PASSWORD,
    state: 'active',
  },
  {
    e2eKey: 'cancelFlow',
    key: 'active',
    label: 'Test only: active, for cancel and REACTIVATE',
    method: 'email',
    signIn: 'e2e-cancel@example.com',
    password: DEMO_PASSWORD,
    state: 'active',
  },
  {
    e2eKey: 'keyboardFlow',
    key: 'active',
    label: 'Test only: active, for the keyboard-only flows',
    method: 'email',
    signIn: 'e2e-keyboard@example.com',
    password: DEMO_PASSWORD,
    state: 'active',
  },
  {
    e2eKey: 'reactivateFlow',
    key: 'inactive',
    label: 'Test only: inactive, reactivated with a new card',
    method: 'email',
    signIn: 'e2e-reactivate@example.com',
    password: DEMO_PASSWORD,
    state: 'inactive',
  },
  {
    e2eKey: 'changeFlow',
    key: 'active',
    label: 'Test only: active, for subscription changes (R10)',
    method: 'email',
    signIn: 'e2e-change@example.com',
    password: DEMO_PASSWORD,
    state: 'active',
  },
  {
    e2eKey: 'changeDeclineFlow',
    key: 'active',
    label: 'Test only: active, for a declined prorated charge (R10)',
    method: 'email',
    signIn: 'e2e-change-decline@example.com',
    password: DEMO_PASSWORD,
    state: 'active',
  },
  {
    e2eKey: 'changeTabsFlow',
    key: 'active',
    label: 'Test only: active, for a change made in two windows (R10)',
    method: 'email',
    signIn: 'e2e-change-tabs@example.com',
    password: DEMO_PASSWORD,
    state: 'active',
  },
  {
    e2eKey: 'changeNoCardFlow',
    key: 'active',
    label: 'Test only: active, its card removed before a change (R10)',
    method: 'email',
    signIn: 'e2e-change-no-card@example.com',
    password: DEMO_PASSWORD,
    state: 'active',
  },
];
