/**
 * Why /authlogin was opened (001 §4): `err` in the query, `blocked` in navigation state. 1 and 2
 * come from the web app's session handling; 3 and 4 from the server's sign-in callback.
 */
export const SESSION_MESSAGES = {
  /** err=1: a newer sign-in ended this session (403 duplicateSession). */
  duplicate: 'You were signed out because your account was signed in somewhere else.',
  /** err=2: an unknown, ended or expired session (403 invalidToken). */
  expired: 'Your session has ended. Please sign in again.',
  /** err=3: the sign-in could not be completed (refused state, code or ID token). */
  signInFailed: 'Signing in did not work. Please try again.',
  /** err=4: a DealerPass ID that belongs to no DealerPass account. */
  noAccount:
    'This DealerPass ID is not connected to a DealerPass account. If your account was moved from our previous system, sign in with your legacy username and connect your DealerPass ID from your account.',
  blocked: 'Your account has been blocked, so you cannot use DealerPass at the moment.',
} as const;

const BY_ERR: Record<string, string> = {
  '1': SESSION_MESSAGES.duplicate,
  '2': SESSION_MESSAGES.expired,
  '3': SESSION_MESSAGES.signInFailed,
  '4': SESSION_MESSAGES.noAccount,
};

export function sessionMessageFor(err: string | null): string | null {
  return err !== null && Object.hasOwn(BY_ERR, err) ? (BY_ERR[err] ?? null) : null;
}
