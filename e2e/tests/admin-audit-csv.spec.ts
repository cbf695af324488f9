import { readFileSync } from 'node:fs';
import { DEMO_ACCOUNTS } from '../../apps/server/src/services/demo/demo-accounts.ts';
import { demoStaff, openAccount, signInStaff } from './admin-steps.ts';
import { expect, test } from './fixtures.ts';

/**
 * Issue 19, R12: every staff action writes an audit row, and the account's audit downloads as
 * CSV from its page: the action taken here is in the file, with who, what and why.
 */
test('the account’s audit log downloads as CSV and holds the action just taken', async ({
  page,
}) => {
  const dealer = DEMO_ACCOUNTS.find((account) => account.key === 'active')!;
  const reason = `Audit export check ${Date.now()}`;
  await signInStaff(page, 'support');
  await openAccount(page, dealer.signIn);
  const userId = new URL(page.url()).pathname.split('/').pop()!;

  await page
    .getByRole('group', { name: 'Account actions' })
    .getByRole('button', { name: 'End sessions' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'End every session of this account' });
  await dialog.getByLabel(/^Reason/).fill(reason);
  await dialog.getByRole('button', { name: 'End sessions' }).click();
  await expect(
    page.getByTestId('toast').filter({ hasText: 'The sessions were ended.' }),
  ).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download audit log (CSV)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`staff-audit-${userId}.csv`);
  const csv = readFileSync((await file.path())!, 'utf8');
  const [header, ...rows] = csv.trim().split(/\r?\n/);
  expect(header).toBe('id,at,staff_email,staff_id,user_id,action,reason,before,after,request_key');
  const row = rows.find((line) => line.includes(reason));
  expect(row, 'the action’s row').toBeDefined();
  expect(row).toContain(demoStaff('support').email);
  expect(row).toContain(userId);
  expect(row).toContain('endSessions');
  // Only this account's rows.
  for (const line of rows) expect(line).toContain(userId);

  // Every account's log from the Accounts page holds the row too.
  await page
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: 'Accounts' })
    .click();
  const allDownload = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download the whole staff audit log (CSV)' }).click();
  const all = await allDownload;
  expect(all.suggestedFilename()).toBe('staff-audit.csv');
  const allCsv = readFileSync((await all.path())!, 'utf8');
  expect(allCsv.split(/\r?\n/)[0]).toBe(header);
  expect(allCsv).toContain(reason);
});
