import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { DEMO_ACCOUNTS } from '../../src/services/demo/demo-accounts.ts';
import { DEMO_ANNUAL_ACCOUNTS } from '../../src/services/demo/seed-demo-annual.ts';
import { E2E_ACCOUNTS } from '../../src/services/demo/e2e-accounts.ts';
import { seedDemoData } from '../../src/services/demo/seed-demo-data.ts';
import { USER_ROW_FIELDS } from '../../src/services/users/get-user-row.ts';
import { businessToday, serializeUser } from '../../src/services/users/serialize-user.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';

const NOW = new Date('2026-03-02T15:00:00Z');

/** The browser tests' own accounts (docs/decisions/014): only when asked, as copies of a demo state. */
describe('seedDemoData with includeE2eAccounts', () => {
  let plain: TestApp;
  let withE2e: TestApp;
  beforeAll(async () => {
    plain = await buildTestApp({ now: () => NOW });
    withE2e = await buildTestApp({ now: () => NOW });
  });
  afterAll(async () => {
    await plain.close();
    await withE2e.close();
  });

  it('are not seeded by default', async () => {
    await seedDemoData(plain.app.db, { now: NOW, encryptionKey: plain.app.keys.encryption });
    const emails = (await plain.app.db.select().from(users)).map((row) => row.email);
    for (const account of E2E_ACCOUNTS) expect(emails).not.toContain(account.signIn);
  });

  it('are seeded with the state of the demo account they copy', async () => {
    const result = await seedDemoData(withE2e.app.db, {
      now: NOW,
      encryptionKey: withE2e.app.keys.encryption,
      includeE2eAccounts: true,
    });
    expect(result).toEqual({
      seeded: true,
      accounts: DEMO_ACCOUNTS.length + DEMO_ANNUAL_ACCOUNTS.length + E2E_ACCOUNTS.length,
    });
    const rows = (await withE2e.app.db.select(USER_ROW_FIELDS).from(users)).map((row) =>
      serializeUser(row, businessToday(withE2e.app)),
    );
    for (const account of E2E_ACCOUNTS) {
      const copy = rows.find((row) => row.email === account.signIn);
      const original = rows.find(
        (row) => row.email === DEMO_ACCOUNTS.find((demo) => demo.key === account.key)?.signIn,
      );
      expect(copy, account.signIn).toBeDefined();
      expect(copy).toMatchObject({
        accountStatus: original!.accountStatus,
        subscriptions: original!.subscriptions,
        creditCardType: original!.creditCardType,
        nextBillDate: original!.nextBillDate,
      });
    }
  });
});
