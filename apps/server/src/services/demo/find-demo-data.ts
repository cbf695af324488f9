import { inArray, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { identities, staffUsers, users } from '../../db/schema.ts';
import { DEMO_ACCOUNTS } from './demo-accounts.ts';
import { DEMO_STAFF, E2E_STAFF } from './demo-staff.ts';
import { E2E_ACCOUNTS } from './e2e-accounts.ts';
import { DEMO_ANNUAL_ACCOUNTS } from './seed-demo-annual.ts';
import { demoAccountEmail } from './seed-demo-data.ts';

export interface DemoDataFound {
  /** Sign-ins (README, "Demo accounts") of the demo and browser-test accounts present. */
  accounts: string[];
  /** E-mails of the demo and browser-test staff members present. */
  staff: string[];
}

/**
 * The accounts and staff members of the demo configuration that this database holds (R17,
 * docs/decisions/030), found by their public sign-ins and e-mails: the DealerPass ID, the
 * migrated username and the contact e-mail of an account, the DealerPass ID alone (its password
 * is public too), and a staff member's e-mail (its authenticator secret is public).
 */
export async function findDemoData(db: Database): Promise<DemoDataFound> {
  const accounts = [...DEMO_ACCOUNTS, ...E2E_ACCOUNTS];
  const names = (account: (typeof accounts)[number]) => [
    account.signIn.toLowerCase(),
    demoAccountEmail(account).toLowerCase(),
  ];
  const wanted = [
    ...new Set([
      ...accounts.flatMap(names),
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
  const staffEmails = [...DEMO_STAFF, ...E2E_STAFF].map((member) => member.email.toLowerCase());
  const staffRows = await db
    .select({ email: staffUsers.email })
    .from(staffUsers)
    .where(inArray(staffUsers.email, staffEmails));
  return {
    accounts: [
      ...new Set(
        accounts
          .filter((account) => names(account).some((name) => present.has(name)))
          .map((account) => account.signIn),
      ),
    ],
    staff: staffRows.map((row) => row.email).sort(),
  };
}
