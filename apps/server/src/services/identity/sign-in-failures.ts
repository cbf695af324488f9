import { SIGN_IN_FAILURE_BUDGET } from '../limits/failure-budgets.ts';

/**
 * After this many sign-in attempts for one account within the window that did not succeed, every
 * further attempt must carry a solved captcha (docs/decisions/016); the budget itself, and how it
 * is taken, is docs/decisions/029's.
 */
export const CAPTCHA_AFTER_FAILURES = SIGN_IN_FAILURE_BUDGET.limit;
export const SIGN_IN_FAILURE_WINDOW_MS = SIGN_IN_FAILURE_BUDGET.windowMs;

/**
 * The key failures are counted under. It is built from what the person typed, not from a row,
 * so an unknown e-mail locks exactly like a known one and the lock does not reveal existence.
 */
export function emailAccountKey(email: string): string {
  return `email:${email.trim().toLowerCase()}`;
}

export function legacyAccountKey(username: string): string {
  return `legacy:${username.trim().toLowerCase()}`;
}

export function staffAccountKey(email: string): string {
  return `staff:${email.trim().toLowerCase()}`;
}

/** A staff member's second factor: wrong codes count per member, whichever session sent them. */
export function totpAccountKey(staffId: string): string {
  return `totp:${staffId}`;
}
