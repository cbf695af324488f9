/**
 * What a 403 from the API means for the browser (001 §4; DECISIONS R6): the body names the
 * failure, the path decides which login page, and `err` tells that page why.
 */

export const SESSION_FAILURE_BODIES = {
  invalidToken: 'invalidToken',
  duplicateSession: 'duplicateSession',
  afDuplicateSession: 'AFduplicateSession',
  extDuplicateSession: 'ExtduplicateSession',
} as const;
export type TSessionFailureBody =
  (typeof SESSION_FAILURE_BODIES)[keyof typeof SESSION_FAILURE_BODIES];

/** The sign-in page of each context (001 §2, §4; R2). */
export function loginPathFor(pathname: string): string {
  if (pathname.startsWith('/af/')) return '/af/login';
  if (pathname.startsWith('/ext/')) return '/ext/login';
  if (pathname === '/app' || pathname.startsWith('/app/')) return '/app/login';
  return '/authlogin';
}

export interface ISessionFailureAction {
  /** Whether to log the user out first (duplicate sessions). */
  logout: boolean;
  redirectTo: string;
  /** 2 for an invalid or expired token, 1 for a duplicate session. */
  err: 1 | 2;
}

/** The action for a 403 body, or null when the body is not a session failure. */
export function sessionFailureAction(
  body: unknown,
  pathname: string,
): ISessionFailureAction | null {
  const text = typeof body === 'string' ? body.trim().replace(/^"|"$/g, '') : '';
  const login = loginPathFor(pathname);
  if (text === SESSION_FAILURE_BODIES.invalidToken) {
    return { logout: false, redirectTo: `${login}?err=2`, err: 2 };
  }
  if (
    text === SESSION_FAILURE_BODIES.duplicateSession ||
    text === SESSION_FAILURE_BODIES.afDuplicateSession ||
    text === SESSION_FAILURE_BODIES.extDuplicateSession
  ) {
    return { logout: true, redirectTo: `${login}?err=1`, err: 1 };
  }
  return null;
}
