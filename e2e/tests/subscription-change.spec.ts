import type { Locator, Page } from '@playwright/test';
import { formatCurrency } from '../../packages/domain/src/money.ts';
import { E2E_ACCOUNTS } from '../fixtures/accounts.ts';
import { DEMO_ACCOUNTS } from '../../apps/server/src/services/demo/demo-accounts.ts';
import { expect, expectAccessible, signInAs, test } from './fixtures.ts';

/**
 * Issue 18, subscription changes (DECISIONS R10): add an item mid-period and see the prorated
 * charge and its receipt; remove one, see it pending, undo it (by keyboard alone); a declined
 * prorated charge changes nothing; axe on the change page. Test-only accounts (fixtures/accounts.ts).
 */

const EXPIRY = `12/${String((new Date().getFullYear() + 3) % 100).padStart(2, '0')}`;

async function tabTo(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

async function openChangePage(page: Page) {
  await page
    .getByRole('navigation', { name: 'Account' })
    .getByRole('link', { name: 'Subscriptions' })
    .click();
  await page.getByRole('link', { name: 'Change subscriptions' }).click();
  await expect(page).toHaveURL(/\/account\/subscriptions\/change$/);
  await expect(page.getByRole('heading', { name: 'Change subscriptions', level: 1 })).toBeVisible();
}

test.describe('subscription changes (R10)', () => {
  test('add mid-period: prorated charge and receipt; remove: pending, then undo, by keyboard', async ({
    page,
  }) => {
    await signInAs(page, E2E_ACCOUNTS.changeFlow);
    await expect(page).toHaveURL(/\/account\/profile$/);
    await openChangePage(page);
    await expect(page.getByRole('checkbox', { name: /^Manheim Market Report \$/ })).toBeChecked();
    await expect(page.getByTestId('change-preview')).toContainText('Tick or untick');
    await expect(page.getByRole('button', { name: 'Confirm change' })).toBeDisabled();
    await expectAccessible(page);

    await page.getByRole('checkbox', { name: /^Kelley Blue Book \$/ }).check();
    const charge = page.getByTestId('charge-today');
    await expect(charge).toContainText(/\$\d+\.\d{2} \(\d+ of \d+ days left in this period\)/);
    await expect(page.getByTestId('next-bill')).toContainText('$203.00 on');
    const charged = (await charge.textContent())!.split(' ')[0]!;
    expect(charged).not.toBe('$0.00');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Confirm change' }).click();
    await expect(page.getByTestId('change-applied')).toContainText(
      'Your subscriptions have been changed.',
    );
    await expect(page.getByTestId('change-applied')).toContainText(charged);
    // The confirmation, at the top of the page, takes the focus from the button below.
    await expect(page.getByTestId('change-applied')).toBeFocused();

    // The payment history's newest payment is the prorated charge, with its receipt (R10, R9).
    const year = new Date().getFullYear();
    const history = await page.request.get(`/api/users/paymentHistory?year=${year}`);
    const newest = (await history.json()).data.payments[0] as {
      amount: number;
      activationDate: string;
    };
    expect(formatCurrency(Math.round(newest.amount * 100))).toBe(charged);
    await page.getByRole('link', { name: 'See the receipt in Billing Details' }).click();
    await expect(page.getByTestId('history-table')).toContainText(charged);

    // Remove by keyboard alone: untick Manheim, confirm, see it pending on Subscriptions, undo.
    await openChangePage(page);
    const mmr = page.getByRole('checkbox', { name: /^Manheim Market Report \$/ });
    await tabTo(page, mmr);
    await page.keyboard.press('Space');
    await expect(mmr).not.toBeChecked();
    await expect(page.getByTestId('removals-pending')).toContainText('Manheim Market Report');
    await expect(page.getByTestId('charge-today')).toContainText('$0.00');
    const confirm = page.getByRole('button', { name: 'Confirm change' });
    await expect(confirm).toBeEnabled();
    await tabTo(page, confirm);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('change-applied')).toBeVisible();

    await page.getByRole('link', { name: 'Back to Subscriptions' }).click();
    const pending = page.getByTestId('pending-removals');
    await expect(pending).toContainText('Manheim Market Report');
    // Until the bill date it still runs.
    await expect(page.locator('tr[data-code="MMR"] td').first()).toHaveText('Yes');
    await expectAccessible(page);
    const undo = pending.getByRole('button', { name: 'Undo: keep Manheim Market Report' });
    await tabTo(page, undo);
    await page.keyboard.press('Enter');
    await expect(
      page.getByRole('status').filter({ hasText: 'stays in your subscriptions' }),
    ).toBeVisible();
    await expect(pending).toHaveCount(0);
    // The Undo pressed is gone: the message reporting it has the focus, not <body>.
    await expect(page.getByTestId('undo-message')).toBeFocused();
  });

  test('a declined prorated charge changes nothing and shows the transaction message', async ({
    page,
  }) => {
    await signInAs(page, E2E_ACCOUNTS.changeDeclineFlow);
    await expect(page).toHaveURL(/\/account\/profile$/);
    // Put the sandbox's declining test card on file (saving a card charges nothing).
    await page
      .getByRole('navigation', { name: 'Account' })
      .getByRole('link', { name: 'Billing Details' })
      .click();
    await page.getByRole('button', { name: /^EDIT/ }).click();
    await page.getByLabel(/^Credit card number/).click();
    await page
      .getByRole('dialog', { name: 'EDIT PAYMENT INFO' })
      .getByRole('button', { name: 'CONTINUE' })
      .click();
    await page.getByLabel(/^Credit card number/).fill('4000 0000 0000 0002');
    await page.getByLabel(/^Expiration/).fill(EXPIRY);
    await page.getByLabel(/^CVV/).fill('123');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(
      page.getByTestId('toast').filter({ hasText: 'Changes have been saved.' }),
    ).toBeVisible();

    await openChangePage(page);
    await page.getByRole('checkbox', { name: /^Kelley Blue Book \$/ }).check();
    await expect(page.getByTestId('charge-today')).not.toContainText('$0.00');
    await page.getByRole('button', { name: 'Confirm change' }).click();
    const alert = page
      .getByRole('alert')
      .filter({ hasText: 'Your subscriptions were not changed' });
    await expect(alert).toContainText(
      'The transaction was not successful. Please try again or contact Customer Support.',
    );
    await page.getByRole('link', { name: 'Back to Subscriptions' }).click();
    await expect(page.locator('tr[data-code="KBB"] td').first()).toHaveText('No');
  });

  test('validating payment only removes; pending cancel is told it cannot change (R10)', async ({
    page,
  }) => {
    const validating = DEMO_ACCOUNTS.find((candidate) => candidate.key === 'validatingPayment')!;
    await signInAs(page, validating);
    await expect(page).toHaveURL(/\/account\//);
    await page.goto('/account/subscriptions/change');
    await expect(page.getByText(/you can remove subscriptions now/)).toBeVisible();
    await expect(page.getByRole('checkbox', { name: /^Kelley Blue Book \$/ })).toBeDisabled();
    const held = page.getByRole('checkbox', { checked: true }).first();
    await held.uncheck();
    await expect(page.getByTestId('removals-pending')).toBeVisible();
    await expect(page.getByTestId('charge-today')).toContainText('$0.00');
    await expectAccessible(page);
    // Not confirmed: the demo account stays as the other tests read it.

    const pendingCancel = DEMO_ACCOUNTS.find((candidate) => candidate.key === 'pendingCancel')!;
    await page.context().clearCookies();
    await signInAs(page, pendingCancel);
    await expect(page).toHaveURL(/\/account\//);
    await page.goto('/account/subscriptions');
    await expect(page.getByRole('link', { name: 'Change subscriptions' })).toHaveCount(0);
    await page.goto('/account/subscriptions/change');
    // R10: reactivate first, said with the way there (issue 25 item 10).
    const notice = page.getByTestId('change-not-allowed');
    await expect(notice).toContainText('reactivate your account first');
    await notice.getByRole('link', { name: 'Reactivate in Billing Details' }).click();
    await expect(page).toHaveURL(/\/account\/billing$/);
    await expect(page.getByTestId('pending-cancel-notice')).toBeVisible();
  });
});
