import type { Page } from '@playwright/test';
import { E2E_ACCOUNTS } from '../fixtures/accounts.ts';
import { expect, expectAccessible, signInAs, test } from './fixtures.ts';

/**
 * Issue 25 items 12 and 13 (R10, docs/decisions/035): a change made in an older window after
 * another window changed the selection is refused and asks for a review, instead of reversing the
 * other window's purchase; with no card on file the page asks for one before anything is charged.
 */

async function openChangePage(page: Page) {
  await page.goto('/account/subscriptions/change');
  await expect(page.getByRole('heading', { name: 'Change subscriptions', level: 1 })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /^AuctionNet \$/ })).toBeVisible();
}

test.describe('subscription change guards (R10)', () => {
  test('a second, older window cannot silently reverse a purchase', async ({ page, context }) => {
    await signInAs(page, E2E_ACCOUNTS.changeTabsFlow);
    await expect(page).toHaveURL(/\/account\//);
    const older = await context.newPage();
    await openChangePage(older);
    await openChangePage(page);

    // Window A adds AuctionNet, charged at once.
    await page.getByRole('checkbox', { name: /^AuctionNet \$/ }).check();
    await expect(page.getByTestId('additions')).toContainText('AuctionNet: $65.00/mo');
    await page.getByRole('button', { name: 'Confirm change' }).click();
    await expect(page.getByTestId('change-applied')).toBeVisible();

    // Window B, opened before, still shows no AuctionNet and adds Price My Ride.
    await older.getByRole('checkbox', { name: /^Price My Ride \$/ }).check();
    await expect(older.getByTestId('additions')).toContainText('Price My Ride: $65.00/mo');
    await older.getByRole('button', { name: 'Confirm change' }).click();
    const alert = older.getByRole('alert').filter({ hasText: 'Please review your change' });
    await expect(alert).toContainText(
      'Your subscriptions changed in another window; review the change.',
    );
    // It now shows the selection as it is: AuctionNet held, Price My Ride not added.
    await expect(older.getByRole('checkbox', { name: /^AuctionNet \$/ })).toBeChecked();
    await expect(older.getByRole('checkbox', { name: /^Price My Ride \$/ })).not.toBeChecked();
    await expectAccessible(older);

    await page.goto('/account/subscriptions');
    await expect(page.locator('tr[data-code="ANET"] td').first()).toHaveText('Yes');
    await expect(page.locator('tr[data-code="PMR"] td').first()).toHaveText('No');
    await expect(page.getByTestId('pending-removals')).toHaveCount(0);
  });

  test('no card on file: the preview asks for one, with the way to Billing Details', async ({
    page,
  }) => {
    await signInAs(page, E2E_ACCOUNTS.changeNoCardFlow);
    await expect(page).toHaveURL(/\/account\//);
    await page.goto('/account/billing');
    await page.getByRole('button', { name: /^REMOVE/ }).click();
    await page
      .getByRole('dialog', { name: 'Remove card' })
      .getByRole('button', { name: 'REMOVE' })
      .click();
    await expect(page.getByTestId('card-area')).not.toHaveAttribute('data-view', 'cardSummary');

    await openChangePage(page);
    await page.getByRole('checkbox', { name: /^Kelley Blue Book \$/ }).check();
    const note = page.getByTestId('card-required');
    await expect(note).toContainText('there is no card on file');
    await expect(page.getByRole('button', { name: 'Confirm change' })).toBeDisabled();
    await expectAccessible(page);
    await note.getByRole('link', { name: 'Add a card in Billing Details' }).click();
    await expect(page).toHaveURL(/\/account\/billing$/);
  });
});
