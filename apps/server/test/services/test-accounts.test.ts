import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.ts';
import { staffUsers, users } from '../../src/db/schema.ts';
import { createIdentity } from '../../src/services/identity/create-identity.ts';
import { DEMO_ACCOUNTS } from '../../src/services/demo/demo-accounts.ts';
import { DEMO_ANNUAL_ACCOUNTS } from '../../src/services/demo/seed-demo-annual.ts';
import { findDemoData } from '../../src/services/demo/find-demo-data.ts';
import { parseTestAccounts, readTestAccounts } from '../../src/services/demo/read-test-accounts.ts';
import { seedDemoData } from '../../src/services/demo/seed-demo-data.ts';
import { seedDemoStaff } from '../../src/services/demo/seed-demo-staff.ts';
import { TEST_ONLY_SIGN_IN } from '../../src/services/demo/test-only-sign-in.ts';
import { USER_ROW_FIELDS } from '../../src/services/users/get-user-row.ts';
import { businessToday, serializeUser } from '../../src/services/users/serialize-user.ts';
import { TEST_ACCOUNTS_CONTENT, testAccounts } from '../factories/test-accounts-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';

const NOW = new Date('2026-03-02T15:00:00Z');
const [ACTIVE, INACTIVE] = TEST_ACCOUNTS_CONTENT.accounts;
const [ENROL] = TEST_ACCOUNTS_CONTENT.staff;

/** TEST_ACCOUNTS_FILE's content, checked (docs/decisions/065): the test-only form or nothing. */
describe('the test accounts file', () => {
  const refusal = (content: unknown) => {
    try {
      parseTestAccounts(content, 'accounts.json');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('accepted');
  };

  it('accepts accounts and staff whose every sign-in and e-mail has the test-only form', () => {
    expect(testAccounts()).toEqual(TEST_ACCOUNTS_CONTENT);
    expect(parseTestAccounts({ accounts: [ACTIVE] }, 'accounts.json')).toEqual({
      accounts: [ACTIVE],
      staff: [],
    });
  });

  it.each([
    ['an account outside the form', { accounts: [{ ...ACTIVE, signIn: 'dealer@example.com' }] }],
    ['a demo sign-in', { accounts: [{ ...ACTIVE, signIn: 'active@example.com' }] }],
    ['another domain', { accounts: [{ ...ACTIVE, signIn: 'e2e-card@example.org' }] }],
    ['a staff member outside the form', { staff: [{ ...ENROL, email: 'new.staff@example.com' }] }],
  ])('refuses %s, naming the entry and the value', (_case, content) => {
    const message = refusal(content);
    expect(message).toMatch(/^Invalid configuration:\n {2}TEST_ACCOUNTS_FILE \(accounts\.json\)/);
    expect(message).toMatch(
      /(accounts\.0\.signIn|staff\.0\.email): must be a test-only (sign-in|e-mail) of the form e2e-…@example\.com \(got "[^"]+"\)/,
    );
  });

  it('refuses a migrated (legacy) account: its made-up e-mail would carry no test-only mark', () => {
    const legacy = {
      ...ACTIVE,
      key: 'migrated',
      method: 'legacy',
      signIn: 'e2e-legacy@example.com',
    };
    expect(refusal({ accounts: [legacy] })).toMatch(
      /accounts\.0\.method: gives the account the e-mail "migrated@example\.com", not of the form e2e-…@example\.com/,
    );
  });

  it.each([
    ['an unknown demo key', { accounts: [{ ...ACTIVE, key: 'vip' }] }, /accounts\.0\.key/],
    ['an unknown status', { accounts: [{ ...ACTIVE, state: 'sleeping' }] }, /accounts\.0\.state/],
    ['an unknown field', { accounts: [{ ...ACTIVE, detail: 'x' }] }, /accounts\.0: .*detail/],
    [
      'a repeated sign-in',
      { accounts: [ACTIVE, { ...ACTIVE, signIn: ACTIVE!.signIn.toUpperCase() }] },
      /accounts\.1: repeats/,
    ],
    ['an unknown role', { staff: [{ ...ENROL, role: 'owner' }] }, /staff\.0\.role/],
    [
      'a secret that is not base32',
      { staff: [{ ...ENROL, totpSecret: 'secret' }] },
      /staff\.0\.totpSecret/,
    ],
    ['a list that is not one', { accounts: {} }, /accounts/],
  ])('refuses %s', (_case, content, names) => {
    expect(refusal(content)).toMatch(names);
  });

  describe('read from its path', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'dealerpass-test-accounts-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('reads the JSON file; a missing file or one that is not JSON is a configuration error', async () => {
      const path = join(dir, 'accounts.json');
      await writeFile(path, JSON.stringify(TEST_ACCOUNTS_CONTENT));
      expect(readTestAccounts(path)).toEqual(TEST_ACCOUNTS_CONTENT);
      await writeFile(path, '{ accounts: [');
      expect(() => readTestAccounts(path)).toThrow(ConfigError);
      expect(() => readTestAccounts(path)).toThrow(/TEST_ACCOUNTS_FILE \(.*\): is not JSON/);
      expect(() => readTestAccounts(join(dir, 'missing.json'))).toThrow(/: cannot be read: ENOENT/);
    });
  });
});

/** The tests' own accounts and staff: only when given, as copies of a demo state (decision 065). */
describe('seeding the test accounts', () => {
  let plain: TestApp;
  let withTests: TestApp;
  beforeAll(async () => {
    plain = await buildTestApp({ now: () => NOW });
    withTests = await buildTestApp({ now: () => NOW });
  });
  afterAll(async () => {
    await plain.close();
    await withTests.close();
  });

  it('are not seeded by default', async () => {
    await seedDemoData(plain.app.db, { now: NOW, encryptionKey: plain.app.keys.encryption });
    await seedDemoStaff(plain.app.db, { now: NOW, encryptionKey: plain.app.keys.encryption });
    const emails = (await plain.app.db.select().from(users)).map((row) => row.email.toLowerCase());
    expect(emails.filter((email) => TEST_ONLY_SIGN_IN.regex.test(email))).toEqual([]);
    expect(await findDemoData(plain.app.db)).toMatchObject({
      accounts: DEMO_ACCOUNTS.map((account) => account.signIn),
    });
  });

  // R17 finds with the LIKE pattern what the file was checked against with the regex.
  it('the database finds by the SQL pattern every sign-in the file accepts, in any case', async () => {
    const accepted = fc.sample(
      fc.mixedCase(fc.stringMatching(new RegExp(TEST_ONLY_SIGN_IN.regex.source))),
      // The run's seed (tooling/fuzz-seed-setup.ts).
      { numRuns: 300 },
    );
    for (const name of accepted) expect(TEST_ONLY_SIGN_IN.regex.test(name), name).toBe(true);
    const values = sql.join(
      accepted.map((name) => sql`(${name})`),
      sql`, `,
    );
    const result = (await plain.app.db.execute(sql`
      select s from (values ${values}) as given(s)
      where not (lower(s) like ${TEST_ONLY_SIGN_IN.sqlLike})`)) as unknown as { rows: unknown[] };
    expect(result.rows).toEqual([]);
  });

  it('are seeded with the state of the demo account they copy', async () => {
    const result = await seedDemoData(withTests.app.db, {
      now: NOW,
      encryptionKey: withTests.app.keys.encryption,
      testAccounts: testAccounts(),
    });
    expect(result).toEqual({
      seeded: true,
      accounts:
        DEMO_ACCOUNTS.length + DEMO_ANNUAL_ACCOUNTS.length + TEST_ACCOUNTS_CONTENT.accounts.length,
    });
    const rows = (await withTests.app.db.select(USER_ROW_FIELDS).from(users)).map((row) =>
      serializeUser(row, businessToday(withTests.app)),
    );
    for (const account of TEST_ACCOUNTS_CONTENT.accounts) {
      const copy = rows.find((row) => row.email === account.signIn);
      const original = rows.find(
        (row) => row.email === DEMO_ACCOUNTS.find((demo) => demo.key === account.key)?.signIn,
      );
      expect(copy, account.signIn).toBeDefined();
      expect(copy).toMatchObject({
        accountStatus: original!.accountStatus,
        accountStatusDetails: original!.accountStatusDetails,
        subscriptions: original!.subscriptions,
        creditCardType: original!.creditCardType,
        nextBillDate: original!.nextBillDate,
      });
    }
  });

  it('seeds the staff members given once, beside the demo staff', async () => {
    const input = { now: NOW, encryptionKey: withTests.app.keys.encryption };
    expect(await seedDemoStaff(withTests.app.db, { ...input, testAccounts: testAccounts() })).toBe(
      3 + TEST_ACCOUNTS_CONTENT.staff.length,
    );
    expect(await seedDemoStaff(withTests.app.db, { ...input, testAccounts: testAccounts() })).toBe(
      0,
    );
    const [enrol] = await withTests.app.db
      .select()
      .from(staffUsers)
      .where(eq(staffUsers.email, ENROL!.email));
    expect(enrol).toMatchObject({ role: 'support', totpEnrolledAt: null });
    const [billing] = await withTests.app.db
      .select()
      .from(staffUsers)
      .where(eq(staffUsers.email, TEST_ACCOUNTS_CONTENT.staff[1]!.email));
    expect(billing?.totpEnrolledAt).toEqual(NOW);
  });

  // R17 (docs/decisions/030, 065): a production server finds them by their form, with no list.
  it('R17 names every test-only account and staff member by its sign-in, even with no list of them', async () => {
    const db = withTests.app.db;
    const found = await findDemoData(db);
    expect(found.accounts).toEqual([
      ...DEMO_ACCOUNTS.map((account) => account.signIn),
      // One name per account (its DealerPass ID, its e-mail and its identity's are one sign-in),
      // spelled as stored, sorted.
      'E2E-API-Complimentary@Example.com',
      ACTIVE!.signIn,
      INACTIVE!.signIn,
    ]);
    expect(found.staff).toEqual(
      [
        'admin.staff@example.com',
        'billing.staff@example.com',
        'support.staff@example.com',
        ...TEST_ACCOUNTS_CONTENT.staff.map((member) => member.email),
      ].sort(),
    );

    // A DealerPass ID of the form that the seed never made (as a browser test's sign-up would),
    // an account whose DealerPass ID changed, and one deleted: each is found by the form, in
    // whichever column holds it, in any case; a DealerPass ID left without its account too.
    await createIdentity(db, { email: 'e2e-signed-up@example.com', password: 'Some!Pass2026' });
    await db
      .update(users)
      .set({ dealerpassUserId: 'E2E-Renamed@example.com' })
      .where(eq(users.dealerpassUserId, INACTIVE!.signIn));
    await db.delete(users).where(eq(users.dealerpassUserId, ACTIVE!.signIn));
    expect((await findDemoData(db)).accounts).toEqual([
      ...DEMO_ACCOUNTS.map((account) => account.signIn),
      'E2E-API-Complimentary@Example.com',
      'E2E-Renamed@example.com',
      ACTIVE!.signIn, // its DealerPass ID, left without its account
      INACTIVE!.signIn, // its DealerPass ID, apart from the account's new one
      'e2e-signed-up@example.com',
    ]);
  });
});
