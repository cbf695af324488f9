/**
 * The sign-ins and e-mails reserved for accounts and staff members that exist only for tests
 * (docs/decisions/065). The server seeds such accounts from TEST_ACCOUNTS_FILE, which it accepts
 * only with APP_ENV=test and only when every sign-in and e-mail in it has this form; so R17's
 * check (find-demo-data.ts) finds them all by the form, without a list of them.
 *
 * `regex` is what the file is checked against; `sqlLike` is what R17 asks of `lower(column)`. The
 * LIKE pattern accepts everything the regex does (and a little more), so nothing seeded escapes it.
 */
export const TEST_ONLY_SIGN_IN = {
  regex: /^e2e-[^@\s]+@example\.com$/i,
  sqlLike: 'e2e-%@example.com',
  /** How messages name the form. */
  shown: 'e2e-…@example.com',
} as const;
