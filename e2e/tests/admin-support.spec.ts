import {
  anotherPerson,
  openAccount,
  setPasswordFromMail,
  signInStaff,
  signUpDealer,
} from './admin-steps.ts';
import { expect, test } from './fixtures.ts';

/**
 * Issue 19, a support call end to end (R12 support): a dealer who lost the verification e-mail
 * is found by e-mail, gets a new one (the earlier link withdrawn), sets a password with it, and
 * then support ends the dealer's sessions; the dealer's open page is signed out.
 */
test('support finds an account, resends its verification e-mail, and ends its sessions', async ({
  browser,
}) => {
  const email = `e2e-support-call-${Date.now()}@example.com`;
  const dealerContext = await browser.newContext(anotherPerson(2));
  const dealer = await dealerContext.newPage();
  await signUpDealer(dealer, email);

  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signInStaff(staff, 'support');
  await openAccount(staff, email);
  await expect(staff.getByText(email).first()).toBeVisible();

  // Support sees no billing action (R12: the domain's role table).
  const actions = staff.getByRole('group', { name: 'Account actions' });
  await expect(actions.getByRole('button', { name: 'Adjust balance' })).toHaveCount(0);
  await expect(staff.getByRole('button', { name: 'Refund' })).toHaveCount(0);

  // Resend: a confirmation first; Cancel sends nothing.
  await actions.getByRole('button', { name: 'Resend verification e-mail' }).click();
  const dialog = staff.getByRole('dialog', { name: 'Resend verification e-mail' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await actions.getByRole('button', { name: 'Resend verification e-mail' }).click();
  await dialog.getByLabel(/^Reason/).fill('Dealer called: the first e-mail never arrived');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(
    staff.getByTestId('toast').filter({ hasText: 'The verification e-mail was sent.' }),
  ).toBeVisible();
  await expect(dialog).toBeHidden();
  const emails = staff.getByRole('region', { name: 'E-mails' });
  await expect(emails.getByRole('row').filter({ hasText: /Verify your e-mail/ })).toHaveCount(2);
  await expect(staff.getByTestId('admin-timeline')).toContainText(/resend|verification/i);

  // The dealer uses the new link and is signed in.
  await setPasswordFromMail(dealer, email);
  await dealer.goto('/account/profile');
  await expect(dealer.getByRole('navigation', { name: 'Account' })).toBeVisible();

  await staff.reload();
  await expect(staff.getByTestId('admin-live-sessions')).toHaveText('1 live session.');
  await staff
    .getByRole('group', { name: 'Account actions' })
    .getByRole('button', { name: 'End sessions' })
    .click();
  const end = staff.getByRole('dialog', { name: 'End every session of this account' });
  await end.getByLabel(/^Reason/).fill('Dealer asked to be signed out everywhere');
  await end.getByRole('button', { name: 'End sessions' }).click();
  await expect(
    staff.getByTestId('toast').filter({ hasText: 'The sessions were ended.' }),
  ).toBeVisible();
  await expect(staff.getByTestId('admin-live-sessions')).toHaveText('0 live sessions.');

  // The dealer's session is over: the account area sends them to sign in again.
  expect((await dealer.request.get('/api/users/current')).status()).not.toBe(200);
  await dealer.goto('/account/profile');
  await expect(dealer).not.toHaveURL(/\/account\//);

  await dealerContext.close();
  await staffContext.close();
});
