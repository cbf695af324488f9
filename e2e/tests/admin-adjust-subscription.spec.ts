import {
  anotherPerson,
  openAccount,
  setPasswordFromMail,
  signInStaff,
  signUpDealer,
} from './admin-steps.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

/**
 * Issue 28's "Adjust": billing staff change a dealer's subscriptions on their behalf from the
 * account page: the dealer's own preview (R10), a reason, the prorated charge to the card on file,
 * the outcome kept on the page, the audit in the timeline; readable and operable at 1280 and
 * 320 px, with axe on the open dialog and after it.
 */
for (const [n, width] of [
  [21, 1280],
  [22, 320],
] as const) {
  test(`billing adds a subscription for a dealer at ${width} px: previewed, charged once, audited`, async ({
    browser,
  }) => {
    // A sign-up, a mailbox round trip and the console's change in one test: over a minute on
    // two busy cores (a limit for hangs, as in the other two-person specs).
    test.setTimeout(180_000);
    const email = `e2e-adjust-${width}-${Date.now()}@example.com`;
    const dealerContext = await browser.newContext(anotherPerson(n));
    const dealer = await dealerContext.newPage();
    await signUpDealer(dealer, email);
    await setPasswordFromMail(dealer, email);

    const staffContext = await browser.newContext({ viewport: { width, height: 900 } });
    const staff = await staffContext.newPage();
    await signInStaff(staff, 'billing');
    await openAccount(staff, email);

    await staff.getByRole('button', { name: 'Change subscriptions' }).click();
    const dialog = staff.getByRole('dialog', { name: 'Change subscriptions for the dealer' });
    await expect(dialog).toBeVisible();
    // The account's selection is ticked, as on the dealer's own page.
    await expect(dialog.getByRole('checkbox', { name: /^Manheim Market Report \$/ })).toBeChecked();
    await dialog.getByRole('checkbox', { name: /^Kelley Blue Book \$/ }).check();
    const charge = dialog.getByTestId('adjust-charge-today');
    await expect(charge).not.toHaveText(/^\$0\.00/);
    const charged = (await charge.textContent())!.split(' ')[0]!;
    await expect(dialog).toContainText('Visa ending in 1111');
    await expectAccessible(staff);
    // Nothing in the dialog is wider than the dialog (its text wraps at 320 px).
    const wider = await dialog.evaluate((element) => {
      const limit = element.getBoundingClientRect().right;
      return Math.max(
        0,
        ...[...element.querySelectorAll('*')].map(
          (child) => child.getBoundingClientRect().right - limit,
        ),
      );
    });
    expect(wider).toBeLessThanOrEqual(0.5);

    // A reason is required (R12); then the change is confirmed, and a double click is one change.
    await dialog.getByRole('button', { name: 'Confirm change' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Enter a reason');
    await dialog.getByLabel(/^Reason/).fill('Dealer asked by phone to add Kelley Blue Book');
    await dialog.getByRole('button', { name: 'Confirm change' }).dblclick();
    const outcome = staff.getByTestId('admin-outcome');
    await expect(outcome).toHaveText(
      `The subscriptions were changed. ${charged} was charged to Visa ending in 1111, and the dealer was e-mailed the receipt.`,
    );
    await expect(outcome).toBeFocused();
    await expect(dialog).toBeHidden();
    await expectAccessible(staff);

    // One payment of that amount, and the timeline names the change and its reason.
    const payments = staff.getByRole('region', { name: 'Payments', exact: true });
    await expect(payments.getByRole('row').filter({ hasText: charged })).toHaveCount(1);
    await expect(
      staff.getByText(/Subscriptions changed for the dealer \(added Kelley Blue Book/),
    ).toBeVisible();

    // The dealer's own page shows the new selection.
    await dealer.goto('/account/subscriptions');
    await expect(dealer.getByText('Kelley Blue Book').first()).toBeVisible();

    await dealerContext.close();
    await staffContext.close();
  });
}
