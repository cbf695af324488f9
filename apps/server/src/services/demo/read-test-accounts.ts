import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ACCOUNT_STATUSES } from '@dealerpass/domain/account/status';
import { STAFF_ROLES } from '@dealerpass/domain/admin/roles';
import { ConfigError } from '../../config.ts';
import type { TDemoAccountKey } from './demo-accounts.ts';
import { DEMO_PROFILES } from './demo-profiles.ts';
import { demoAccountEmail } from './seed-demo-data.ts';
import { TEST_ONLY_SIGN_IN } from './test-only-sign-in.ts';

/**
 * The accounts and staff members a test server seeds besides the demo data (TEST_ACCOUNTS_FILE,
 * APP_ENV=test only; docs/decisions/065). Each entry has the shape of a demo account
 * (demo-accounts.ts) or a demo staff member (demo-staff.ts); every sign-in and e-mail has the
 * test-only form, which is how a production server recognises them later (R17).
 */

const testOnly = (what: string) =>
  z.string().refine((value) => TEST_ONLY_SIGN_IN.regex.test(value), {
    error: (issue) =>
      `must be a test-only ${what} of the form ${TEST_ONLY_SIGN_IN.shown} (got "${String(issue.input)}")`,
  });

const DEMO_ACCOUNT_KEYS = Object.keys(DEMO_PROFILES) as [TDemoAccountKey, ...TDemoAccountKey[]];

const ZTestAccountSchema = z
  .strictObject({
    /** The demo account whose profile and state it copies. */
    key: z.enum(DEMO_ACCOUNT_KEYS),
    label: z.string().min(1),
    method: z.enum(['email', 'legacy']),
    signIn: testOnly('sign-in'),
    password: z.string().min(1),
    state: z.enum(ACCOUNT_STATUSES),
    details: z.string().min(1).optional(),
  })
  .superRefine((account, ctx) => {
    // The seed writes this e-mail beside the sign-in: the sign-in itself, but a migrated (legacy)
    // account's is made up from its key, so it would carry no test-only mark.
    const email = demoAccountEmail(account);
    if (email !== account.signIn && !TEST_ONLY_SIGN_IN.regex.test(email))
      ctx.addIssue({
        code: 'custom',
        path: ['method'],
        message: `gives the account the e-mail "${email}", not of the form ${TEST_ONLY_SIGN_IN.shown}: a test-only account signs in with a DealerPass ID (method "email")`,
      });
  });

const ZTestStaffMemberSchema = z.strictObject({
  email: testOnly('e-mail'),
  name: z.string().min(1),
  role: z.enum(STAFF_ROLES),
  /** Base32; null: the member enrols an authenticator at the first sign-in. */
  totpSecret: z
    .string()
    .regex(/^[A-Z2-7]{16,}$/, 'must be a base32 secret (A-Z, 2-7, at least 16)')
    .nullable(),
});

/** Names that must not repeat, compared as the database's unique keys and R17 compare them. */
function noRepeats(names: string[], ctx: z.RefinementCtx, path: (string | number)[]): void {
  const seen = new Set<string>();
  names.forEach((name, index) => {
    const key = name.toLowerCase();
    if (seen.has(key))
      ctx.addIssue({ code: 'custom', path: [...path, index], message: `repeats "${name}"` });
    seen.add(key);
  });
}

export const ZTestAccountsFileSchema = z
  .strictObject({
    accounts: z.array(ZTestAccountSchema).default([]),
    staff: z.array(ZTestStaffMemberSchema).default([]),
  })
  .superRefine((file, ctx) => {
    noRepeats(
      file.accounts.map((account) => account.signIn),
      ctx,
      ['accounts'],
    );
    noRepeats(
      file.staff.map((member) => member.email),
      ctx,
      ['staff'],
    );
  })
  // Only what passed this schema reaches the seed (seedDemoData, seedDemoStaff).
  .brand<'TestAccountsFile'>();

export type TTestAccountsFile = z.output<typeof ZTestAccountsFileSchema>;

/** The file's content checked; a ConfigError naming each wrong entry otherwise. */
export function parseTestAccounts(content: unknown, source: string): TTestAccountsFile {
  const parsed = ZTestAccountsFileSchema.safeParse(content);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map(
    (issue) => `    ${issue.path.join('.') || '(the file)'}: ${issue.message}`,
  );
  throw new ConfigError(
    `Invalid configuration:\n  TEST_ACCOUNTS_FILE (${source}): not a test accounts file\n${lines.join('\n')}`,
  );
}

/** Reads and checks TEST_ACCOUNTS_FILE; a ConfigError when it cannot be read or is wrong. */
export function readTestAccounts(path: string): TTestAccountsFile {
  const refuse = (problem: string, error: unknown) =>
    new ConfigError(
      `Invalid configuration:\n  TEST_ACCOUNTS_FILE (${path}): ${problem}: ${(error as Error).message}`,
    );
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw refuse('cannot be read', error);
  }
  let content: unknown;
  try {
    content = JSON.parse(text);
  } catch (error) {
    throw refuse('is not JSON', error);
  }
  return parseTestAccounts(content, path);
}
