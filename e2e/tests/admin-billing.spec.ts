import { formatCurrency } from '../../packages/domain/src/money.ts';
import { R3_PRICE_TABLE, quote } from '../../packages/domain/src/prices.ts';
import {
  anotherPerson,
  openAccount,
  setPasswordFromMail,
  signInStaff,
  signUpDealer,
} from './admin-steps.ts';
import { expect, test } from './fixtures.ts';

/**
 * Issue 19, a billing case (R12 billing): the sign-up payment of a dealer still in the trial is
 * refunded from the console, through the gateway once; the payment shows what was refunded, the
 * receipt still downloads, the balance is unchanged (decision 026: a refund's two entries cancel
 * out), and the dealer's own Billing page shows the refund with its receipt.
 */
test('billing refunds a trial payment; the console and the dealer’s Billing page show it', async ({
  browser,
}) => {
  const email = `e2e-billing-case-${Date.now()}@example.com`;
  const dealerContext = await browser.newContext(anotherPerson(1));
  const dealer = await dealerContext.newPage();
  await signUpDealer(dealer, email);
  await setPasswordFromMail(dealer, email);
  const total = quote(['NADA', 'MMR'], new Date(), R3_PRICE_TABLE).totalCents;
  const totalText = formatCurrency(total);

  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signInStaff(staff, 'billing');
  await openAccount(staff, email);

  const payments = staff.getByRole('region', { name: 'Payments', exact: true });
  const row = payments.getByRole('row').filter({ hasText: totalText });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('payment-refunded')).toHaveText('—');

  // The receipt of the payment downloads as its PDF.
  const receiptDownload = staff.waitForEvent('download');
  await row.getByRole('link', { name: /Receipt/ }).click();
  const receipt = await receiptDownload;
  expect(receipt.suggestedFilename()).toMatch(/^\d{4}-\d{2}-\d{2}-payment\.pdf$/);

  // The refund: the amount offered is what is left, typed in dollars; a reason is required.
  await row.getByRole('button', { name: 'Refund' }).click();
  const dialog = staff.getByRole('dialog', { name: /Refund the payment of/ });
  const amount = dialog.getByLabel(/^Amount to refund/);
  await expect(amount).toHaveValue((total / 100).toFixed(2));
  await dialog.getByRole('button', { name: 'Refund' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Give a reason');
  await amount.fill(((total + 1) / 100).toFixed(2));
  await dialog.getByLabel(/^Reason/).fill('Trial cancelled by phone; full refund agreed');
  await dialog.getByRole('button', { name: 'Refund' }).click();
  await expect(dialog.getByRole('alert')).toContainText(`at most ${totalText}`);
  await amount.fill((total / 100).toFixed(2));
  // A double click sends the same request key: one refund.
  await dialog.getByRole('button', { name: 'Refund' }).dblclick();
  await expect(
    staff.getByTestId('toast').filter({ hasText: 'The refund went through.' }),
  ).toBeVisible();

  await expect(row.getByTestId('payment-refunded')).toHaveText(totalText);
  await expect(row.getByRole('button', { name: 'Refund' })).toHaveCount(0);
  const refunds = staff.getByRole('region', { name: 'Refunds' });
  await expect(refunds.getByRole('row').filter({ hasText: 'succeeded' })).toHaveCount(1);
  await expect(refunds).toContainText(totalText);
  await expect(staff.getByTestId('admin-balance')).toHaveText('$0.00');
  const ledger = staff.getByRole('region', { name: 'Balance entries' });
  await expect(ledger.getByRole('row').filter({ hasText: /refund/ })).toHaveCount(2);

  // The dealer's Billing page shows the refunded amount and offers the refund receipt.
  await dealer.goto('/account/billing');
  const refunded = dealer.getByTestId('history-refunded');
  await expect(refunded).toHaveText(`Refunded ${totalText}`);
  await expect(dealer.getByRole('button', { name: /Download refund receipt/ })).toHaveCount(1);

  await dealerContext.close();
  await staffContext.close();
});
