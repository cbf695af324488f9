import type { Page } from '@playwright/test';
import { signInStaff } from './admin-steps.ts';
import { expect, test } from './fixtures.ts';

/**
 * Issue 25 item 1, the class rule "one intent, one key" (docs/decisions/031): every keyed form
 * submitted twice with different content in one visit creates two things. The console's forms
 * resent the first request's key, so the second promotion code and the second staff member were
 * announced as created while only the first existed; a duplicate code typed in the same visit was
 * "created" too.
 */

const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

test('every keyed form submitted twice with different content in one visit creates two things: promotions', async ({
  page,
}) => {
  const stamp = Date.now().toString(36).toUpperCase();
  const codes = [`UXA${stamp}`, `UXB${stamp}`];
  await signInStaff(page, 'admin');
  await page.goto('/admin/promotions');
  const form = page.getByRole('form', { name: 'New promotion code' });
  const table = page
    .getByRole('table')
    .filter({ has: page.getByRole('columnheader', { name: 'Code' }) });

  for (const code of codes) {
    await form.getByLabel(/^Code/).fill(code);
    await form.getByLabel(/^Percent off/).fill('10');
    await form.getByRole('button', { name: 'Create code' }).click();
    await expect(toast(page, `The code ${code} was created.`)).toBeVisible();
    await expect(table.getByRole('rowheader', { name: code, exact: true })).toBeVisible();
  }
  // Both exist, on the server as on the page.
  await page.reload();
  for (const code of codes) {
    await expect(page.getByRole('rowheader', { name: code, exact: true })).toBeVisible();
  }

  // A code that exists, typed again in the same visit, is refused as a duplicate: never "created".
  await form.getByLabel(/^Code/).fill(codes[0]!);
  await form.getByLabel(/^Percent off/).fill('15');
  await form.getByRole('button', { name: 'Create code' }).click();
  await expect(form.getByRole('alert')).toContainText(
    'A promotion code with this name already exists.',
  );
  await expect(toast(page, `The code ${codes[0]} was created.`)).toHaveCount(0);
});

test('every keyed form submitted twice with different content in one visit creates two things: staff members', async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  const members = [
    { name: `Ux Alpha ${stamp}`, email: `ux-alpha-${stamp}@staff.example` },
    { name: `Ux Bravo ${stamp}`, email: `ux-bravo-${stamp}@staff.example` },
  ];
  await signInStaff(page, 'admin');
  await page.goto('/admin/staff');
  const form = page.getByRole('form', { name: 'Add a staff member' });

  for (const member of members) {
    await form.getByLabel(/^Name/).fill(member.name);
    await form.getByLabel(/^E-mail/).fill(member.email);
    await form.getByLabel(/^Role/).selectOption('support');
    await form.getByLabel(/^First password/).fill('Member-Password-2026!');
    await form.getByRole('button', { name: 'Add member' }).click();
    await expect(toast(page, `${member.name} was added.`)).toBeVisible();
    await expect(page.getByRole('rowheader', { name: member.name, exact: true })).toBeVisible();
  }
  await page.reload();
  for (const member of members) {
    await expect(page.getByRole('cell', { name: member.email, exact: true })).toBeVisible();
  }
});
