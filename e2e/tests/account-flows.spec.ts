import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { E2E_ACCOUNTS } from '../fixtures/accounts.ts';
import { expect, expectAccessible, signInAs, test } from './fixtures.ts';

/**
 * Issue 7, the flows that change an account: alternate phone; add, edit (through the EDIT
 * PAYMENT INFO dialog) and remove a card; cancel with a reason that needs detail, then
 * REACTIVATE; reactivate an inactive account with a new card, then download its receipt and the
 * year zip and open both; and the cancellation flow and card dialogs by keyboard alone. Each uses
 * its own test-only account (e2e/fixtures/accounts.ts, which the test servers seed), so the
 * per-state test never sees their changes.
 */

const nav = (page: Page) => page.getByRole('navigation', { name: 'Account' });
const toast = (page: Page, text: string | RegExp) =>
  page.getByTestId('toast').filter({ hasText: text });

async function fillCard(page: Page, number: string, expiry: string, cvv: string) {
  await page.getByLabel(/^Credit card number/).fill(number);
  await page.getByLabel(/^Expiration/).fill(expiry);
  await page.getByLabel(/^CVV/).fill(cvv);
}

/** A future MM/YY. */
const EXPIRY = `12/${String((new Date().getFullYear() + 3) % 100).padStart(2, '0')}`;

/** Presses Tab until the locator has focus (keyboard only), failing after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 40) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test.describe('account flows (issue 7)', () => {
  test('update the alternate phone; edit a card through the dialog, remove it, add one', async ({
    page,
  }) => {
    await signInAs(page, E2E_ACCOUNTS.cardFlows);
    await expect(page).toHaveURL(/\/account\/profile$/);

    // Profile (000 §5): submit only after a change; 10 digits; success toast; saved.
    const save = page.getByRole('button', { name: 'Save' });
    const altPhone = page.getByLabel(/^Alternate phone/);
    await expect(save).toBeDisabled();
    await altPhone.fill('31355');
    await expect(save).toBeEnabled();
    await save.click();
    await expect(page.getByText('Valid 10 digit phone number is required').first()).toBeVisible();
    await expectAccessible(page);
    await altPhone.fill('3135550177');
    await save.click();
    await expect(toast(page, 'Changes have been saved.')).toBeVisible();
    await expect(save).toBeDisabled();
    await page.reload();
    await expect(page.getByLabel(/^Alternate phone/)).toHaveValue('3135550177');

    // Edit the card: the dialog asks once, then the stored card is cleared (000 §4).
    await nav(page).getByRole('link', { name: 'Billing Details' }).click();
    await expect(page.getByTestId('card-tile')).toContainText('1111');
    // Issue 14: EDIT moves focus into the form (the button it pressed is gone), and the form's
    // Cancel gives focus back to EDIT, never to <body>.
    await page.getByRole('button', { name: /^EDIT/ }).click();
    await expect(page.getByRole('form', { name: 'Billing details' })).toBeFocused();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(page.getByRole('button', { name: /^EDIT/ })).toBeFocused();
    await page.getByRole('button', { name: /^EDIT/ }).click();
    await expect(page.getByRole('button', { name: 'Update' })).toBeVisible();
    const number = page.getByLabel(/^Credit card number/);
    await expect(number).toHaveValue('************1111');
    await number.click();
    const dialog = page.getByRole('dialog', { name: 'EDIT PAYMENT INFO' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Are you sure you want to edit this information?');
    await expect(dialog).toContainText(
      'Editing billing details will require you to re-enter your credit card information.',
    );
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'CANCEL' }).click();
    await expect(dialog).toBeHidden();
    await expect(number).toHaveValue('************1111');
    await page.getByLabel(/^CVV/).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'CONTINUE' }).click();
    await expect(dialog).toBeHidden();
    await expect(number).toHaveValue('');
    await expect(page.getByLabel(/^Expiration/)).toHaveValue('');
    // Shown once: focusing again does not ask again.
    await number.click();
    await expect(dialog).toBeHidden();
    // The same-address box starts checked (the demo billing address is the account's).
    await expect(page.getByLabel('My account and billing details are the same')).toBeChecked();
    await fillCard(page, '5555 5555 5555 4444', EXPIRY, '321');
    // The profile's toast may still be up (5 s): the next one must be a new one.
    await expect(toast(page, 'Changes have been saved.')).toHaveCount(0, { timeout: 10_000 });
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(toast(page, 'Changes have been saved.')).toBeVisible();
    await expect(page.getByTestId('card-tile')).toContainText(/Mastercard.*4444/s);

    // Remove it: a confirmation modal, then the user is refetched (000 §4).
    await page.getByRole('button', { name: /^REMOVE/ }).click();
    const remove = page.getByRole('dialog', { name: 'Remove card' });
    await expect(remove).toContainText('Are you sure you want to remove this card?');
    await expectAccessible(page);
    await remove.getByRole('button', { name: 'REMOVE' }).click();
    await expect(page.getByTestId('card-area')).toHaveAttribute('data-view', 'addPrompt');
    // Issue 14: the card and its REMOVE are gone; focus lands on the section, not <body>.
    await expect(page.getByRole('heading', { name: 'Payment Information' })).toBeFocused();

    // Add one: ADD mode, Save. The billing address stayed and matches the account's, so the
    // same-address box starts checked; unchecking it clears the billing fields.
    await page.getByRole('button', { name: 'ADD NEW CARD' }).click();
    const same = page.getByLabel('My account and billing details are the same');
    await expect(same).toBeChecked();
    await same.uncheck();
    await expect(page.getByLabel(/^Billing first name/)).toHaveValue('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Billing first name is required.').first()).toBeVisible();
    await expect(page.getByText('Credit card number is required.').first()).toBeVisible();
    // 000 §5: an empty postal code is required, not invalid.
    await expect(
      page.getByText('Billing postal code is required.', { exact: true }).first(),
    ).toBeVisible();
    await expect(page.getByText('Valid billing postal code is required.')).toHaveCount(0);
    // The number takes digits and spaces, the expiry digits and a slash.
    await page.getByLabel(/^Credit card number/).pressSequentially('55a5-5 ');
    await expect(page.getByLabel(/^Credit card number/)).toHaveValue('5555 ');
    await page.getByLabel(/^Expiration/).pressSequentially('1x2/');
    await expect(page.getByLabel(/^Expiration/)).toHaveValue('12/');
    await expectAccessible(page);
    // Changing the country resets the region.
    await page.getByLabel(/^Billing country/).selectOption('US');
    await page.getByLabel(/^Billing state/).selectOption('MI');
    await page.getByLabel(/^Billing country/).selectOption('CA');
    await expect(page.getByLabel(/^Billing province/)).toHaveValue('');
    await same.check();
    await expect(page.getByLabel(/^Billing first name/)).toHaveValue('Morgan');
    // 000 §4: the state is copied too, though the state list changed with the country.
    await expect(page.getByLabel(/^Billing country/)).toHaveValue('US');
    await expect(page.getByLabel(/^Billing state/)).toHaveValue('MI');
    await expect(page.getByLabel(/^Billing postal code/)).toHaveValue('48226');
    await fillCard(page, '4111111111111111', EXPIRY, '123');
    await expect(toast(page, 'Changes have been saved.')).toHaveCount(0, { timeout: 10_000 });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Changes have been saved.')).toBeVisible();
    await expect(page.getByTestId('card-tile')).toContainText(/Visa.*1111/s);
  });

  test('cancel with a reason that needs detail, then REACTIVATE', async ({ page }) => {
    await signInAs(page, E2E_ACCOUNTS.cancelFlow);
    await expect(page).toHaveURL(/\/account\/profile$/);
    await nav(page).getByRole('link', { name: 'Subscriptions' }).click();
    await page.getByRole('link', { name: 'Cancel Subscription' }).click();
    await expect(page).toHaveURL(/\/account\/subscriptions\/cancel$/);

    await page.getByLabel('Changing vendor').check();
    const submit = page.getByRole('button', { name: 'Cancel Subscription' });
    await submit.click();
    await expect(
      page.getByText('Please tell us more (5 to 250 characters).').first(),
    ).toBeVisible();
    await page.getByLabel(/^Please tell us more/).fill('abc');
    await submit.click();
    await expect(page.getByText('Please enter at least 5 characters.').first()).toBeVisible();
    await page.getByLabel(/^Please tell us more/).fill('Moving to a vendor with VIN decoding.');
    await expect(page.getByTestId('remaining')).toHaveText('213 characters remaining');
    await submit.click();
    // The first valid press turns the button into Confirm Cancel; nothing is sent yet.
    const confirm = page.getByRole('button', { name: 'Confirm Cancel' });
    await expect(confirm).toBeVisible();
    await expectAccessible(page);
    await confirm.click();
    await expect(toast(page, 'Your subscription has been cancelled.')).toBeVisible();
    await expect(page).toHaveURL(/\/account\/subscriptions\?cancelled=true$/);
    await expect(page.getByTestId('cancelled-message')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Cancel Subscription' })).toHaveCount(0);
    // Leaving the page ended the cancelling state: the cancel page is closed again.
    await page.goto('/account/subscriptions/cancel');
    await expect(page).toHaveURL(/\/account\/subscriptions$/);

    await nav(page).getByRole('link', { name: 'Billing Details' }).click();
    await expect(page.getByTestId('summary-status')).toHaveText('Pending Cancel');
    await page.getByRole('button', { name: 'REACTIVATE' }).click();
    await expect(toast(page, 'Changes have been saved.')).toBeVisible();
    await expect(page.getByTestId('summary-status')).toHaveText('Active');
    await expect(page.getByTestId('card-area')).toHaveAttribute('data-view', 'cardSummary');
  });

  test('reactivate an inactive account with a new card; download its receipt and the year zip', async ({
    page,
  }) => {
    await signInAs(page, E2E_ACCOUNTS.reactivateFlow);
    await expect(page).toHaveURL(/\/account\/billing$/);
    await expect(page.getByTestId('inactive-message')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(0);
    // A declined card is refused and the account stays inactive (the sandbox's test card).
    await page.getByLabel('My account and billing details are the same').check();
    await fillCard(page, '4000 0000 0000 0002', EXPIRY, '123');
    await page.getByRole('button', { name: 'Reactivate Account' }).click();
    await expect(toast(page, 'Please try again.')).toBeVisible();
    await expect(page.getByTestId('summary-status')).toHaveText('Inactive');

    await fillCard(page, '4242 4242 4242 4242', EXPIRY, '123');
    await page.getByRole('button', { name: 'Reactivate Account' }).click();
    await expect(toast(page, 'Changes have been saved.')).toBeVisible();
    await expect(page.getByTestId('summary-status')).toHaveText('Active');
    await expect(page.getByTestId('card-tile')).toContainText(/Visa.*4242/s);
    await expect(nav(page).getByRole('link')).toHaveCount(4);

    // The reactivation charge is this year's newest payment, with its receipt (R9); the
    // months this account paid before it went inactive are listed after it. No reload: the
    // history on the page is fetched again after the reactivation (issue 25 item 9).
    const table = page.getByTestId('history-table');
    const history = await page.request.get(
      `/api/users/paymentHistory?year=${new Date().getFullYear()}`,
    );
    const payments = (await history.json()).data.payments as { activationDate: string }[];
    await expect(table.locator('tbody tr')).toHaveCount(payments.length);
    const newest = table.locator('tbody tr').first();
    await expect(newest.locator('td').nth(1)).toContainText('4242');
    await expect(newest.locator('td').nth(2)).toHaveText(/^\$\d+\.\d{2}$/);

    const [receipt] = await Promise.all([
      page.waitForEvent('download'),
      newest.getByRole('button', { name: /^Download receipt/ }).click(),
    ]);
    expect(receipt.suggestedFilename()).toBe(
      `${payments[0]!.activationDate.slice(0, 10)}-payment.pdf`,
    );
    const pdf = readFileSync((await receipt.path())!);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');

    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download Year' }).click(),
    ]);
    expect(zip.suggestedFilename()).toBe(`${new Date().getFullYear()}-payments-history.zip`);
    const bytes = readFileSync((await zip.path())!);
    const entries = readZipEntries(bytes);
    // One entry per payment of the year, in date order; the reactivation's is the stored PDF.
    expect(entries.map((entry) => entry.name)).toEqual(
      payments.map((p) => `${p.activationDate.slice(0, 10)}-payment.pdf`).reverse(),
    );
    expect(entries.at(-1)!.name).toBe(receipt.suggestedFilename());
    expect(entries.at(-1)!.data.equals(pdf)).toBe(true);
  });

  test('keyboard only: the card dialogs and the cancellation flow, focus into and out of each modal', async ({
    page,
  }) => {
    await signInAs(page, E2E_ACCOUNTS.keyboardFlow);
    await expect(page).toHaveURL(/\/account\/profile$/);
    await page.goto('/account/billing');

    // REMOVE opens its modal with focus inside; Escape closes it and focus returns to REMOVE.
    const removeButton = page.getByRole('button', { name: /^REMOVE/ });
    await tabTo(page, removeButton);
    await page.keyboard.press('Enter');
    const remove = page.getByRole('dialog', { name: 'Remove card' });
    await expect(remove).toBeVisible();
    expect(await remove.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
    // Issue 14: the first focus is the safe choice, not the destructive REMOVE.
    await expect(remove.getByRole('button', { name: 'CANCEL' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(remove).toBeHidden();
    await expect(removeButton).toBeFocused();

    // EDIT, then the first field: the EDIT PAYMENT INFO dialog takes focus; CANCEL gives it back.
    const edit = page.getByRole('button', { name: /^EDIT/ });
    await tabTo(page, edit);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('form', { name: 'Billing details' })).toBeFocused();
    const dialog = page.getByRole('dialog', { name: 'EDIT PAYMENT INFO' });
    for (let i = 0; i < 40 && !(await dialog.isVisible()); i++) await page.keyboard.press('Tab');
    await expect(dialog).toBeVisible();
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await tabTo(page, dialog.getByRole('button', { name: 'CANCEL' }), 3);
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    // Focus is back on the field that asked: the first field of the billing form.
    const same = page.getByLabel('My account and billing details are the same');
    await expect(same).toBeFocused();
    // Next field: asked again; CONTINUE clears the card and returns focus.
    await page.keyboard.press('Tab');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'CONTINUE' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    const number = page.getByLabel(/^Credit card number/);
    await expect(number).toHaveValue('');
    await tabTo(page, number);
    await page.keyboard.type('5555555555554444');
    await page.keyboard.press('Tab');
    await page.keyboard.type(EXPIRY);
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await page.keyboard.press('Enter');
    await expect(toast(page, 'Changes have been saved.')).toBeVisible();
    await expect(page.getByTestId('card-tile')).toContainText('4444');
    await expect(page.getByRole('heading', { name: 'Payment Information' })).toBeFocused();

    // The cancellation flow.
    await page.goto('/account/subscriptions');
    const cancelLink = page.getByRole('link', { name: 'Cancel Subscription' });
    await tabTo(page, cancelLink);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/account\/subscriptions\/cancel$/);
    const first = page.getByLabel('Business is slow');
    await tabTo(page, first);
    await page.keyboard.press('Space');
    await expect(first).toBeChecked();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByLabel('Changing vendor')).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel(/^Please tell us more/)).toBeFocused();
    await page.keyboard.type('Trying another vendor.');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Cancel Subscription' })).toBeFocused();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('button', { name: 'Confirm Cancel' });
    await expect(confirm).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/account\/subscriptions\?cancelled=true$/);
    await expect(toast(page, 'Your subscription has been cancelled.')).toBeVisible();

    // And back: REACTIVATE by keyboard.
    await page.goto('/account/billing');
    const reactivate = page.getByRole('button', { name: 'REACTIVATE' });
    await tabTo(page, reactivate);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('summary-status')).toHaveText('Active');
    // Issue 14: REACTIVATE is gone with the notice; focus stays in the section.
    await expect(page.getByRole('heading', { name: 'Payment Information' })).toBeFocused();
  });
});

/** A small reader for the stored (uncompressed) entries the year zip holds (R9). */
function readZipEntries(zip: Buffer): { name: string; data: Buffer }[] {
  const entries: { name: string; data: Buffer }[] = [];
  let offset = 0;
  while (zip.readUInt32LE(offset) === 0x04034b50) {
    const method = zip.readUInt16LE(offset + 8);
    expect(method, 'stored entry').toBe(0);
    const size = zip.readUInt32LE(offset + 22);
    const nameLength = zip.readUInt16LE(offset + 26);
    const extraLength = zip.readUInt16LE(offset + 28);
    const name = zip.subarray(offset + 30, offset + 30 + nameLength).toString('utf8');
    const start = offset + 30 + nameLength + extraLength;
    entries.push({ name, data: zip.subarray(start, start + size) });
    offset = start + size;
  }
  expect(zip.readUInt32LE(offset), 'central directory follows the entries').toBe(0x02014b50);
  return entries;
}
