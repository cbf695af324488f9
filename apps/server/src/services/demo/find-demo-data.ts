import { inArray, or, sql, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { identities, staffUsers, users } from '../../db/schema.ts';
import { DEMO_ACCOUNTS } from './demo-accounts.ts';
import { DEMO_STAFF } from './demo-staff.ts';
import { DEMO_ANNUAL_ACCOUNTS } from './seed-demo-annual.ts';
import { demoAccountEmail } from './seed-demo-data.ts';
import { TEST_ONLY_SIGN_IN } from './test-only-sign-in.ts';

export interface DemoDataFound {
  /**
   * Sign-ins of the demo accounts present (README, "Demo accounts"), in the list's order, then
   * those of the test-only accounts present, sorted.
   */
  accounts: string[];
  /** E-mails of the demo and test-only staff members present. */
  staff: string[];
}

/** `lower(column)` has the test-only form (test-only-sign-in.ts). */
const testOnly = (column: SQLWrapper) => sql`lower(${column}) like ${TEST_ONLY_SIGN_IN.sqlLike}`;

/**
 * The accounts and staff members whose passwords are public that this database holds (R17,
 * docs/decisions/030 and 065):
 * - the demo configuration's, by their public sign-ins and e-mails: the DealerPass ID, the
 *   migrated username and the contact e-mail of an account, the DealerPass ID alone (its
 *   password is public too), and a staff member's e-mail (its authenticator secret is public);
 * - the tests' own (TEST_ACCOUNTS_FILE), by the test-only form every one of their sign-ins and
 *   e-mails has, in the same columns: the server seeds no other.
 */
export async function findDemoData(db: Database): Promise<DemoDataFound> {
  const demoAccounts = await findDemoAccounts(db);
  const testAccounts = await findTestOnlyAccounts(db);
  const staffRows = await db
    .select({ email: staffUsers.email })
    .from(staffUsers)
    .where(
      or(
        inArray(
          staffUsers.email,
          DEMO_STAFF.map((member) => member.email.toLowerCase()),
        ),
        testOnly(staffUsers.email),
      ),
    );
  return {
    accounts: [...demoAccounts, ...testAccounts],
    staff: staffRows.map((row) => row.email).sort(),
  };
}

/** The demo accounts present, named by their sign-ins in the list's order. */
async function findDemoAccounts(db: Database): Promise<string[]> {
  const names = (account: (typeof DEMO_ACCOUNTS)[number]) => [
    account.signIn.toLowerCase(),
    demoAccountEmail(account).toLowerCase(),
  ];
  const wanted = [
    ...new Set([
      ...DEMO_ACCOUNTS.flatMap(names),
      ...DEMO_ANNUAL_ACCOUNTS.map((account) => account.signIn.toLowerCase()),
    ]),
  ];
  const userRows = await db
    .select({
      dealerpassUserId: users.dealerpassUserId,
      legacyUsername: users.legacyUsername,
      email: users.email,
    })
    .from(users)
    .where(
      or(
        inArray(sql`lower(${users.dealerpassUserId})`, wanted),
        inArray(sql`lower(${users.legacyUsername})`, wanted),
        inArray(sql`lower(${users.email})`, wanted),
      ),
    );
  const identityRows = await db
    .select({ email: identities.email })
    .from(identities)
    .where(inArray(sql`lower(${identities.email})`, wanted));
  const present = new Set(
    [
      ...userRows.flatMap((row) => [row.dealerpassUserId, row.legacyUsername, row.email]),
      ...identityRows.map((row) => row.email),
    ]
      .filter((value): value is string => typeof value === 'string')
      .map((value) => value.toLowerCase()),
  );
  return [
    ...new Set(
      DEMO_ACCOUNTS.filter((account) => names(account).some((name) => present.has(name))).map(
        (account) => account.signIn,
      ),
    ),
  ];
}

/**
 * The test-only accounts present, each named once by its sign-in: an account's DealerPass ID,
 * else its migrated username, else its e-mail, whichever has the test-only form first; and a
 * DealerPass ID of that form whose account is gone.
 */
async function findTestOnlyAccounts(db: Database): Promise<string[]> {
  const userRows = await db
    .select({
      signIn: sql<string>`case
        when ${testOnly(users.dealerpassUserId)} then ${users.dealerpassUserId}
        when ${testOnly(users.legacyUsername)} then ${users.legacyUsername}
        else ${users.email} end`,
    })
    .from(users)
    .where(
      or(testOnly(users.dealerpassUserId), testOnly(users.legacyUsername), testOnly(users.email)),
    );
  const identityRows = await db
    .select({ signIn: identities.email })
    .from(identities)
    .where(testOnly(identities.email));
  const named = new Map<string, string>();
  for (const { signIn } of [...userRows, ...identityRows])
    if (!named.has(signIn.toLowerCase())) named.set(signIn.toLowerCase(), signIn);
  return [...named.values()].sort();
}
