/** The password rule of 001 §5 in words, shown under every new-password field. */
export const PASSWORD_RULE_HINT =
  'At least 8 characters and no spaces, with a lower-case letter, an upper-case letter, a number and a special character.';

/** The server's own /login starts the OpenID Connect sign-in; `hint` pre-fills the e-mail. */
export function signInUrl(email: string): string {
  return `/login?hint=${encodeURIComponent(email)}`;
}
