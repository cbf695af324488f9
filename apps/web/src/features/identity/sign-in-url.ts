/** The server's own /login starts the OpenID Connect sign-in; `hint` pre-fills the e-mail. */
export function signInUrl(email: string): string {
  return `/login?hint=${encodeURIComponent(email)}`;
}
