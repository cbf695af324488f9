import type { Locator, Page } from '@playwright/test';
import { DEMO_ACCOUNTS } from '../../apps/server/src/services/demo/demo-accounts.ts';
import { accountRow, anotherPerson, signInStaff } from './admin-steps.ts';
import { acceptEssentialCookies, expect, expectAccessible, test } from './fixtures.ts';

/**
 * Issue 19: every console page works with the keyboard alone, has no axe violation (WCAG 2.0–2.2
 * A/AA), also with a dialog open, and reflows at 320 px (no sideways page scroll; tables scroll
 * in their own region).
 */

const PHONE = { width: 320, height: 720 };
const DEALER = DEMO_ACCOUNTS.find((account) => account.key === 'active')!;

/** Presses Tab until `target` has focus (as a keyboard user would), failing if it never does. */
async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

async function settled(page: Page) {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.locator('.page-loading')).toHaveCount(0);
}

async function expectReflows(page: Page, what: string) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow, `${what} scrolls sideways at ${PHONE.width} px`).toBeLessThanOrEqual(0);
}

/** A Contact Us message for the inbox, sent as a visitor sends it. */
async function sendContactMessage(page: Page, name: string) {
  await page.goto('/contact');
  await acceptEssentialCookies(page);
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Email').fill('kim.visitor@example.com');
  await page.getByLabel('Phone country').selectOption('Canada');
  await page.getByLabel('Phone number').fill('4165550199');
  await page.getByLabel('Reason for contacting us').selectOption('Technical Support');
  await page.getByLabel('Comments').fill('Which report shows auction prices?');
  await page.getByLabel('I’m not a robot').click();
  await expect(page.getByText('Verified.')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('status').getByText('Contact Us Form Submitted.')).toBeVisible();
}

test.describe('the console with the keyboard, axe and 320 px (issue 19)', () => {
  test('an admin works every page with the keyboard alone, axe clean', async ({
    page,
    browser,
  }) => {
    // Every console page by keyboard with axe on each, the overview's charts among them.
    test.setTimeout(180_000);
    const sender = `Kim Keyboard ${Date.now()}`;
    const visitorContext = await browser.newContext(anotherPerson(3));
    await sendContactMessage(await visitorContext.newPage(), sender);
    await visitorContext.close();
    await signInStaff(page, 'admin');
    await expectAccessible(page);
    const nav = page.getByRole('navigation', { name: 'Console' });

    // Billing and admin land on the overview (its keyboard test is admin-overview.spec.ts); the
    // accounts' search is the next page.
    await page.goto('/admin/accounts');
    await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();
    // Search and open an account.
    await tabTo(page, page.getByLabel('Search accounts'));
    await page.keyboard.type(DEALER.signIn);
    await page.keyboard.press('Enter');
    const result = accountRow(page, DEALER.signIn).getByRole('link');
    await expect(result).toBeVisible();
    await expectAccessible(page);
    await tabTo(page, result);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/admin\/accounts\/[\w-]+$/);
    await settled(page);
    await expectAccessible(page);

    // A verified DealerPass ID has nothing to verify: the action is not offered.
    await expect(page.getByText('Linked; password set, e-mail verified')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resend verification e-mail' })).toHaveCount(0);

    // An action's dialog: opened with Enter, focus inside, a missing reason announced, Escape
    // closes it unsent and gives focus back to its button.
    const block = page
      .getByRole('group', { name: 'Account actions' })
      .getByRole('button', { name: 'Block' });
    await tabTo(page, block);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Block this account' });
    await expect(dialog.getByLabel(/^Reason/)).toBeFocused();
    await expectAccessible(page);
    await tabTo(page, dialog.getByRole('button', { name: 'Block' }));
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('alert')).toContainText('reason');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(block).toBeFocused();

    // Promotions: a code created from the keyboard.
    await tabTo(page, nav.getByRole('link', { name: 'Promotions' }));
    await page.keyboard.press('Enter');
    await settled(page);
    await expectAccessible(page);
    const code = `KEYS${Date.now() % 100000}`;
    await tabTo(page, page.getByLabel(/^Code/));
    await page.keyboard.type(code);
    await tabTo(page, page.getByLabel(/^Percent off/));
    await page.keyboard.type('15');
    await tabTo(page, page.getByRole('button', { name: 'Create code' }));
    await page.keyboard.press('Enter');
    await expect(
      page.getByTestId('toast').filter({ hasText: `The code ${code} was created.` }),
    ).toBeVisible();
    await expect(page.getByTestId(`promotion-${code}`)).toContainText('15% off');

    for (const section of ['Prices', 'Dunning', 'Staff']) {
      await tabTo(page, nav.getByRole('link', { name: section }));
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 1, name: section })).toBeVisible();
      await settled(page);
      await expectAccessible(page);
    }

    // Staff: a member added from the keyboard, who will enrol at the first sign-in.
    const newcomer = `kit.keys.${Date.now()}@example.com`;
    await tabTo(page, page.getByLabel(/^Name/));
    await page.keyboard.type('Kit Keys');
    await page.keyboard.press('Tab');
    await page.keyboard.type(newcomer);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel(/^Role/)).toBeFocused();
    await page.getByLabel(/^Role/).selectOption('support');
    await tabTo(page, page.getByLabel(/^First password/));
    await page.keyboard.type('Newcomer!Pass2026');
    await page.keyboard.press('Enter');
    await expect(
      page.getByTestId('toast').filter({ hasText: 'Kit Keys was added.' }),
    ).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(newcomer) })).toContainText('Not yet');

    // The inbox: the message opened and answered from the keyboard.
    await tabTo(page, nav.getByRole('link', { name: 'Inbox' }));
    await page.keyboard.press('Enter');
    await settled(page);
    await expectAccessible(page);
    await tabTo(page, page.getByRole('link', { name: sender }));
    await page.keyboard.press('Enter');
    await expect(
      page.getByRole('heading', { level: 1, name: `Message from ${sender}` }),
    ).toBeVisible();
    await expectAccessible(page);
    await tabTo(page, page.getByLabel(/^Your reply/));
    await page.keyboard.type('The market report MMR shows auction prices.');
    await tabTo(page, page.getByRole('button', { name: 'Send reply' }));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('toast').filter({ hasText: 'The reply was sent' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Replies' })).toContainText(
      'The market report MMR shows auction prices.',
    );
    await expectAccessible(page);
  });

  test('no console page scrolls sideways at 320 px, nor has an axe violation there', async ({
    page,
  }) => {
    // An axe run on every console page: a limit for hangs, as the keyboard sweep above has.
    test.setTimeout(180_000);
    await page.setViewportSize(PHONE);
    await signInStaff(page, 'admin');
    await expectReflows(page, '/admin');
    await page.goto('/admin/accounts');
    await expectReflows(page, '/admin/accounts');
    await page.getByLabel('Search accounts').fill(DEALER.signIn);
    await page.getByRole('button', { name: 'Search' }).click();
    const result = accountRow(page, DEALER.signIn).getByRole('link');
    await expect(result).toBeVisible();
    await expectReflows(page, 'the search results');
    await result.click();
    await settled(page);
    const accountPath = new URL(page.url()).pathname;

    const paths = [
      accountPath,
      '/admin/promotions',
      '/admin/prices',
      '/admin/dunning',
      '/admin/inbox?status=all',
      '/admin/staff',
    ];
    for (const path of paths) {
      await page.goto(path);
      await settled(page);
      await expectReflows(page, path);
      await expectAccessible(page);
    }
    await page.goto('/admin/inbox?status=all');
    await page.getByRole('region', { name: 'Contact messages' }).getByRole('link').first().click();
    await settled(page);
    await expectReflows(page, 'a contact message');

    // With a dialog open.
    await page.goto(accountPath);
    await settled(page);
    await page.getByRole('button', { name: 'Adjust balance' }).click();
    await expect(page.getByRole('dialog', { name: 'Credit or charge the balance' })).toBeVisible();
    await expectReflows(page, 'the balance dialog');
    await expectAccessible(page);
  });
});
