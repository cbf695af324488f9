import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffUsers } from '../../src/db/schema.ts';
import { totpCode } from '../../src/lib/totp.ts';
import { STAFF_SESSION_COOKIE } from '../../src/plugins/staff-session.ts';
import { DEMO_STAFF, DEMO_STAFF_PASSWORD } from '../../src/services/demo/demo-staff.ts';
import { findDemoData } from '../../src/services/demo/find-demo-data.ts';
import { seedDemoData } from '../../src/services/demo/seed-demo-data.ts';
import { seedDemoStaff } from '../../src/services/demo/seed-demo-staff.ts';
import { users } from '../../src/db/schema.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { TestBrowserSession } from '../factories/sign-in.ts';
import { TEST_ACCOUNTS_CONTENT, testAccounts } from '../factories/test-accounts-fixtures.ts';

/** The demo staff (README, "Operator console"): one per role, whose published codes work. */
describe('demo staff', () => {
  let t: TestApp;
  const now = new Date('2026-11-26T15:00:00Z');
  beforeAll(async () => {
    t = await buildTestApp({ now: () => now });
  });
  afterAll(() => t.close());

  it('seeds one member per role once, and the test-only members only when given', async () => {
    const key = t.app.keys.encryption;
    expect(await seedDemoStaff(t.app.db, { now, encryptionKey: key })).toBe(3);
    expect(
      await seedDemoStaff(t.app.db, { now, encryptionKey: key, testAccounts: testAccounts() }),
    ).toBe(TEST_ACCOUNTS_CONTENT.staff.length);
    expect(
      await seedDemoStaff(t.app.db, { now, encryptionKey: key, testAccounts: testAccounts() }),
    ).toBe(0);
    const rows = await t.app.db.select().from(staffUsers);
    expect(rows.map((row) => row.role).sort()).toEqual([
      'admin',
      'billing',
      'billing',
      'support',
      'support',
    ]);
    const [enrol] = await t.app.db
      .select()
      .from(staffUsers)
      .where(eq(staffUsers.email, TEST_ACCOUNTS_CONTENT.staff[0]!.email));
    expect(enrol?.totpEnrolledAt).toBeNull();
  });

  it.each(DEMO_STAFF.map((member) => [member.role, member] as const))(
    'signs the %s member in with the README’s password and a code from its published secret',
    async (_role, member) => {
      const browser = new TestBrowserSession(t);
      await browser.open();
      const { url } = await browser.follow('/admin/login');
      const uid = /^\/oidc\/interaction\/([\w-]+)$/.exec(url)?.[1];
      await browser.get(url);
      const login = await browser.send('POST', `/oidc/interaction/${uid}/staff-login`, {
        email: member.email,
        password: DEMO_STAFF_PASSWORD,
      });
      expect(login.statusCode).toBe(200);
      const redirectTo = new URL(login.json().data.redirectTo as string);
      await browser.follow(`${redirectTo.pathname}${redirectTo.search}`);
      expect(browser.jar.get(STAFF_SESSION_COOKIE)).toBeTruthy();
      const verified = await browser.send('POST', '/api/admin/session/verify', {
        code: totpCode(member.totpSecret!, now),
      });
      expect(verified.statusCode).toBe(200);
      expect(verified.json().data).toMatchObject({ role: member.role, secondFactor: true });
    },
  );

  // R17 (docs/decisions/030): what a production server looks for before it starts.
  it('finds the demo staff members and accounts by their public e-mails and sign-ins', async () => {
    const staffEmails = [...DEMO_STAFF, ...TEST_ACCOUNTS_CONTENT.staff]
      .map((member) => member.email)
      .sort();
    expect(await findDemoData(t.app.db)).toEqual({ accounts: [], staff: staffEmails });
    await seedDemoData(t.app.db, { now, encryptionKey: t.app.keys.encryption });
    const found = await findDemoData(t.app.db);
    expect(found.accounts).toContain('active@example.com');
    expect(found.accounts).toContain('migrated.dealer');
    // The account row deleted, its DealerPass ID (public password) is still found; the
    // migrated account has none, so it is gone with its row.
    await t.app.db.delete(users).where(eq(users.dealerpassUserId, 'active@example.com'));
    await t.app.db.delete(users).where(eq(users.dealerpassUserId, 'migrated.dealer'));
    const left = (await findDemoData(t.app.db)).accounts;
    expect(left).toContain('active@example.com');
    expect(left).not.toContain('migrated.dealer');
    await t.app.db.delete(staffUsers);
    expect((await findDemoData(t.app.db)).staff).toEqual([]);
  });
});
