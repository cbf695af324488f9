import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import {
  accountRow,
  anotherPerson,
  setPasswordFromMail,
  signInStaff,
  signUpDealer,
} from './admin-steps.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

/**
 * Issue 28 (R14), in the browser against the real server, at 1280 and 320 px with axe on every
 * new screen and dialog: the dealer's flow (the offer, the invoice issued, downloaded, and "Keep
 * paying monthly by card"), and the staff's (found by invoice number, a check of the wrong amount
 * refused in the dialog, the right one recorded: the account is on an annual period and the
 * dealer sees it; then the check returned). Screenshots go to test-results/annual-billing/.
 */

const INVOICE_NUMBER = /^[A-Z][A-Z0-9]*-\d{4}-\d{6}$/;

const uniqueEmail = (tag: string, width: number) =>
  `e2e-annual-${tag}-${width}-${Date.now()}@example.com`;

async function expectNoSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow, `${what} scrolls sideways`).toBeLessThanOrEqual(0);
}

/** Reflow, axe, and a screenshot to look at. */
async function check(page: Page, shots: string, what: string) {
  await expectNoSidewaysScroll(page, what);
  await expectAccessible(page);
  await page.screenshot({ path: `${shots}-${what}.png`, fullPage: true });
}

/** A new dealer on the sandbox's approved card, signed in on its own Billing Details. */
async function newDealer(page: Page, email: string) {
  await signUpDealer(page, email);
  await setPasswordFromMail(page, email);
  await page.goto('/account/billing');
  await expect(page.getByRole('heading', { level: 1, name: 'Billing Details' })).toBeVisible();
}

/** The dealer confirms the offer; the open invoice's number and amount as the page shows them. */
async function requestAnnual(page: Page, shots: string) {
  const section = page.getByRole('region', { name: 'Annual Billing' });
  const offer = section.getByTestId('annual-offer');
  await expect(offer.getByRole('heading')).toHaveText('Pay annually by check and save 10%');
  await expect(section.getByTestId('annual-remit-to')).not.toBeEmpty();
  await check(page, shots, 'offer');

  const opener = section.getByRole('button', { name: 'Pay annually by check' });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'Pay annually by check' });
  await expect(dialog).toBeVisible();
  await check(page, shots, 'offer-dialog');
  await dialog.getByRole('button', { name: 'Issue invoice' }).click();

  const message = section.getByTestId('annual-message');
  await expect(message).toContainText(/^Invoice \S+ for \$[\d,.]+ was issued and e-mailed to you/);
  await expect(message).toBeFocused();
  const number = (await section.getByTestId('annual-invoice-number').textContent()) ?? '';
  expect(number).toMatch(INVOICE_NUMBER);
  const amount = (await section.getByTestId('annual-invoice-amount').textContent()) ?? '';
  return { number, amount };
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 320, height: 720 },
]) {
  test.describe(`annual billing by check at ${viewport.width} px (issue 28)`, () => {
    test('the dealer: offer, invoice issued, downloaded, then keep paying monthly', async ({
      browser,
    }) => {
      test.setTimeout(180_000);
      const shots = `test-results/annual-billing/${viewport.width}-dealer`;
      const context = await browser.newContext({
        ...anotherPerson(viewport.width === 1280 ? 51 : 52),
        viewport,
      });
      const page = await context.newPage();
      await newDealer(page, uniqueEmail('dealer', viewport.width));

      const { number, amount } = await requestAnnual(page, shots);
      const section = page.getByRole('region', { name: 'Annual Billing' });
      await expect(section.getByTestId('annual-open-invoice')).toContainText(amount);
      await check(page, shots, 'open-invoice');

      // The invoice downloads as its PDF, named by its number.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        section.getByRole('button', { name: 'Download invoice', exact: true }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${number}.pdf`);
      expect(
        readFileSync((await download.path())!)
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');

      // Keep paying monthly by card: a confirmation, then the invoice is void and the offer back.
      const keep = section.getByRole('button', { name: 'Keep paying monthly by card' });
      await keep.click();
      const dialog = page.getByRole('dialog', { name: 'Keep paying monthly by card' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Keep the invoice' })).toBeFocused();
      await check(page, shots, 'keep-monthly-dialog');
      // Escape changes nothing and gives focus back to the button.
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(keep).toBeFocused();
      await keep.click();
      await dialog.getByRole('button', { name: 'Void the invoice' }).click();
      const message = section.getByTestId('annual-message');
      await expect(message).toHaveText(
        `Invoice ${number} was voided. Your card goes on being billed monthly.`,
      );
      await expect(message).toBeFocused();
      await expect(section.getByTestId('annual-offer')).toBeVisible();
      await expect(section.getByTestId('annual-invoices')).toContainText('Void');
      await check(page, shots, 'voided');

      // The dealer was e-mailed the invoice and its voiding.
      await page.goto('/dev/mailbox');
      await expect(page.getByText(number).first()).toBeVisible();
      await context.close();
    });

    test('staff: find by invoice number, record the check, the annual period; a returned check', async ({
      browser,
    }) => {
      test.setTimeout(240_000);
      const shots = `test-results/annual-billing/${viewport.width}-staff`;
      const email = uniqueEmail('staff', viewport.width);
      const dealerContext = await browser.newContext({
        ...anotherPerson(viewport.width === 1280 ? 53 : 54),
        viewport,
      });
      const dealer = await dealerContext.newPage();
      await newDealer(dealer, email);
      const { number, amount } = await requestAnnual(dealer, `${shots}-dealer`);

      const staffContext = await browser.newContext({ viewport });
      const staff = await staffContext.newPage();
      await signInStaff(staff, 'billing');

      // The invoice is in the queue beside Dunning.
      await staff
        .getByRole('navigation', { name: 'Console' })
        .getByRole('link', { name: 'Invoices due' })
        .click();
      await expect(staff.getByRole('heading', { level: 1, name: 'Invoices due' })).toBeVisible();
      await expect(
        staff.getByRole('region', { name: 'Open invoices' }).getByRole('link', { name: number }),
      ).toBeVisible();
      await check(staff, shots, 'invoices-due');

      // Search finds the account by the invoice number.
      await staff
        .getByRole('navigation', { name: 'Console' })
        .getByRole('link', { name: 'Accounts' })
        .click();
      await staff.getByLabel('Search accounts').fill(number);
      await staff.getByRole('button', { name: 'Search' }).click();
      await accountRow(staff, email).getByRole('link').click();
      await expect(staff).toHaveURL(/\/admin\/accounts\/[\w-]+$/);

      const invoices = staff.locator('#admin-invoices');
      const row = invoices.getByRole('row').filter({ hasText: number });
      await expect(row.getByTestId('invoice-status')).toHaveText('Open');
      await expect(row.getByRole('link', { name: /PDF/ })).toBeVisible();
      await check(staff, shots, 'account-open-invoice');

      // A check of another amount is refused in the dialog, with what the invoice leaves open.
      const actions = invoices.getByRole('group', { name: `Actions for invoice ${number}` });
      const opener = actions.getByRole('button', { name: 'Record a check' });
      await opener.click();
      const dialog = staff.getByRole('dialog', { name: `Record a check for invoice ${number}` });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByLabel(/^Check number/)).toBeFocused();
      await check(staff, shots, 'record-check-dialog');
      await dialog.getByLabel(/^Check number/).fill('1234');
      await dialog.getByLabel(/^Amount/).fill('1.00');
      await dialog.getByRole('button', { name: 'Record check' }).click();
      const refusal = dialog.getByRole('alert');
      await expect(refusal).toContainText('The check was not recorded');
      await expect(refusal).toContainText(amount);
      await expect(staff.getByTestId('admin-outcome')).toHaveCount(0);
      await check(staff, shots, 'record-check-refused');

      // The right amount: the invoice is paid and the account on its annual period.
      await dialog.getByLabel(/^Amount/).fill(amount.replace(/[$,]/g, ''));
      await dialog.getByRole('button', { name: 'Record check' }).click();
      const outcome = staff.getByTestId('admin-outcome');
      await expect(outcome).toContainText(`Check 1234 for ${amount} was recorded.`);
      await expect(outcome).toBeFocused();
      await expect(row.getByTestId('invoice-status')).toHaveText(/^Paid /);
      await expect(staff.getByTestId('admin-annual-period')).toContainText(
        'Annually by check, paid through',
      );
      await expect(staff.getByTestId('admin-timeline')).toContainText('Check');
      await check(staff, shots, 'account-paid');

      // The dealer's Billing Details: billed annually, and the check payment with its receipt.
      await dealer.reload();
      await expect(dealer.getByTestId('summary-annual')).toContainText(
        'Billed annually by check, paid through',
      );
      const history = dealer.getByTestId('history-table');
      const checkRow = history.getByRole('row').filter({ hasText: 'Check 1234' });
      await expect(checkRow).toHaveCount(1);
      await expect(checkRow).toContainText(amount);
      const [receipt] = await Promise.all([
        dealer.waitForEvent('download'),
        checkRow.getByRole('button', { name: /^Download receipt/ }).click(),
      ]);
      expect(
        readFileSync((await receipt.path())!)
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
      await check(dealer, `${shots}-dealer`, 'annual-period');

      // The bank returns the check: the payment is reversed.
      const returned = row.getByRole('button', { name: 'Record returned check' });
      await returned.click();
      const returnedDialog = staff.getByRole('dialog', { name: 'Record check 1234 as returned' });
      await expect(returnedDialog).toBeVisible();
      await check(staff, shots, 'returned-check-dialog');
      await returnedDialog.getByLabel(/^Reason/).fill('Returned by the bank: insufficient funds');
      await returnedDialog.getByRole('button', { name: 'Record returned check' }).click();
      await expect(outcome).toHaveText(
        'Check 1234 was recorded as returned; its payment is reversed.',
      );
      await expect(outcome).toBeFocused();
      await expect(row).toContainText('returned');
      await check(staff, shots, 'account-check-returned');

      await dealerContext.close();
      await staffContext.close();
    });
  });
}
