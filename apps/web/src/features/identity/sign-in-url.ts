/** The sign-in paths the server answers (docs/decisions/009): only these may follow a link. */
const SIGN_IN_PATHS = ['/login', '/app/login', '/af/login', '/ext/login'];

/**
 * The server's own /login starts the OpenID Connect sign-in; `hint` pre-fills the e-mail. A
 * verification link may name where to sign in (the sign-up's `forwardTo`, DECISIONS R6): it is
 * used only when it is one of our sign-in paths, so the link cannot send anyone elsewhere.
 */
export function signInUrl(email: string, forwardTo?: string | null): string {
  const target = forwardTo ? safeSignInTarget(forwardTo) : null;
  const url = target ?? new URL('/login', 'http://dealerpass.invalid');
  url.searchParams.set('hint', email);
  return `${url.pathname}${url.search}`;
}

function safeSignInTarget(value: string): URL | null {
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  try {
    const url = new URL(value, 'http://dealerpass.invalid');
    if (url.origin !== 'http://dealerpass.invalid') return null;
    return SIGN_IN_PATHS.includes(url.pathname) ? url : null;
  } catch {
    return null;
  }
}
