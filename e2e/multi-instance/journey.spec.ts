import type { Page, Response } from '@playwright/test';
import { acceptEssentialCookies, expect, signInAs, test } from '../tests/fixtures.ts';
import {
  continueTo,
  fillCard,
  fillContact,
  fillDealership,
  heading,
  itemBox,
  solveCaptcha,
} from '../tests/signup-steps.ts';
import { E2E_ACCOUNTS } from '../fixtures/accounts.ts';
import { INSTANCE_PORTS, type Cluster } from './cluster.ts';

/**
 * R13 proven with real parts: three instances on one PostgreSQL and one Redis behind HAProxy,
 * round robin, no sticky sessions. The browser journey of a new customer runs through the
 * balancer (sign-up → verify → sign in → change card → cancel → reactivate) and one instance is
 * killed with SIGKILL part way. Sessions, CSRF, the provider's state, captchas and billing state
 * live in the database, so the journey completes; the user sees no error.
 */

const PASSWORD = 'Multi!Instance2026';
const EXPIRY = `12/${String((new Date().getFullYear() + 3) % 100).padStart(2, '0')}`;

function cluster(): Cluster {
  const described = process.env.DP_CLUSTER;
  if (!described) throw new Error('the cluster was not started (global-setup.ts)');
  return JSON.parse(described) as Cluster;
}

/** Every answer the page received through the balancer: which instance served it, its status. */
function watch(page: Page) {
  const served: { instance: string; status: number; url: string }[] = [];
  const failed: string[] = [];
  page.on('response', (response: Response) => {
    const instance = response.headers()['x-dealerpass-instance'];
    // Cacheable answers (assets, the favicon) may come from the browser's cache with the
    // headers of their first answer; everything else the server answers is no-store.
    if (response.headers()['cache-control'] !== 'no-store') return;
    if (instance) served.push({ instance, status: response.status(), url: response.url() });
  });
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    // The browser cancelling a request of the page it leaves (a module preload) is no failure.
    if (reason === 'net::ERR_ABORTED') return;
    failed.push(`${request.method()} ${request.url()} (${reason})`);
  });
  return { served, failed };
}

const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });
const nav = (page: Page) => page.getByRole('navigation', { name: 'Account' });

test('sign-up → verify → sign in → change card → cancel → reactivate across three instances, one killed part way', async ({
  page,
}) => {
  const { served, failed } = watch(page);
  const email = `multi.${Date.now()}@example.com`;

  // Sign up: the four pages, each call to whichever instance is next.
  await page.goto('/signup');
  await acceptEssentialCookies(page);
  await fillContact(page, email);
  await continueTo(page);
  await heading(page, 'Subscriptions');
  await itemBox(page, 'NADA').check();
  await continueTo(page);
  await fillDealership(page);
  await continueTo(page);
  await heading(page, 'Payment Information');
  await fillCard(page, '4111 1111 1111 1111');
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page).toHaveURL(/\/signup\/confirmation$/, { timeout: 30_000 });

  // Verify: the mail from the shared outbox, its link sets the password and signs in (R6).
  await page.goto('/dev/mailbox');
  const mail = page
    .getByRole('listitem')
    .filter({ hasText: `To ${email}` })
    .filter({ hasText: 'Verify your e-mail' });
  await mail.getByText(/Verify your e-mail/).click();
  await mail.getByRole('link', { name: /\/identity\/set-password\?token=/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Set your password' })).toBeVisible();
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm new password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page).toHaveURL(/\/account(\/profile)?$/);

  // Sign out, and in again with the new password.
  await page.getByRole('link', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/authlogout$/);
  await signInAs(page, { method: 'email', signIn: email, password: PASSWORD });
  await expect(page).toHaveURL(/\/account(\/profile)?$/);
  await expect(nav(page)).toBeVisible();

  const before = new Set(served.map((answer) => answer.instance));
  expect(before.size, 'round robin: every instance served part of the journey').toBe(3);

  // Part way: one instance dies without a word.
  const victimPort = INSTANCE_PORTS[1]!;
  const victim = cluster().instances[victimPort]!;
  process.kill(victim, 'SIGKILL');
  await expect
    .poll(
      () =>
        fetch(`http://127.0.0.1:${victimPort}/api/health/live`).then(
          () => 'answering',
          () => 'gone',
        ),
      { message: 'the killed instance no longer answers' },
    )
    .toBe('gone');
  const killedAt = served.length;

  // Change the card.
  await nav(page).getByRole('link', { name: 'Billing Details' }).click();
  await expect(page.getByTestId('card-tile')).toContainText('1111');
  await page.getByRole('button', { name: /^EDIT/ }).click();
  await page.getByLabel(/^Credit card number/).click();
  const dialog = page.getByRole('dialog', { name: 'EDIT PAYMENT INFO' });
  await dialog.getByRole('button', { name: 'CONTINUE' }).click();
  await page.getByLabel(/^Credit card number/).fill('5555 5555 5555 4444');
  await page.getByLabel(/^Expiration/).fill(EXPIRY);
  await page.getByLabel(/^CVV/).fill('321');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page, 'Changes have been saved.')).toBeVisible();
  await expect(page.getByTestId('card-tile')).toContainText(/Mastercard.*4444/s);

  // Cancel inside the trial: refunded, inactive at once (R4); then reactivate the same day with a
  // card, charged again.
  await nav(page).getByRole('link', { name: 'Subscriptions' }).click();
  await page.getByRole('link', { name: 'Cancel Subscription' }).click();
  await expect(page).toHaveURL(/\/account\/subscriptions\/cancel$/);
  await page.getByLabel('Changing vendor').check();
  await page.getByLabel(/^Please tell us more/).fill('Trying another vendor first.');
  await page.getByRole('button', { name: 'Cancel Subscription' }).click();
  await page.getByRole('button', { name: 'Confirm Cancel' }).click();
  await expect(toast(page, 'Your subscription has been cancelled.')).toBeVisible();
  await page.goto('/account/billing');
  await expect(page.getByTestId('summary-status')).toHaveText('Inactive');
  await page.getByLabel('My account and billing details are the same').check();
  await page.getByLabel(/^Credit card number/).fill('4242 4242 4242 4242');
  await page.getByLabel(/^Expiration/).fill(EXPIRY);
  await page.getByLabel(/^CVV/).fill('123');
  await page.getByRole('button', { name: 'Reactivate Account' }).click();
  await expect(toast(page, 'Changes have been saved.')).toBeVisible();
  await expect(page.getByTestId('summary-status')).toHaveText('Active');

  // Cancel, then REACTIVATE, with an account past its trial (pending cancel until its period
  // ends, 001 §1): the seeded test account, signed in through the balancer.
  await page.getByRole('link', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/authlogout$/);
  await signInAs(page, E2E_ACCOUNTS.cancelFlow);
  await expect(page).toHaveURL(/\/account\/profile$/);
  await nav(page).getByRole('link', { name: 'Subscriptions' }).click();
  await page.getByRole('link', { name: 'Cancel Subscription' }).click();
  await expect(page).toHaveURL(/\/account\/subscriptions\/cancel$/);
  await page.getByLabel('Changing vendor').check();
  await page.getByLabel(/^Please tell us more/).fill('Moving to a vendor with VIN decoding.');
  await page.getByRole('button', { name: 'Cancel Subscription' }).click();
  await page.getByRole('button', { name: 'Confirm Cancel' }).click();
  await expect(toast(page, 'Your subscription has been cancelled.')).toBeVisible();
  await nav(page).getByRole('link', { name: 'Billing Details' }).click();
  await expect(page.getByTestId('summary-status')).toHaveText('Pending Cancel');
  await page.getByRole('button', { name: 'REACTIVATE' }).click();
  await expect(toast(page, 'Changes have been saved.')).toBeVisible();
  await expect(page.getByTestId('summary-status')).toHaveText('Active');

  // The two survivors carried the rest; the balancer never answered for the dead one.
  const after = served.slice(killedAt);
  const victimName = `app${INSTANCE_PORTS.indexOf(victimPort) + 1}`;
  expect(after.length).toBeGreaterThan(10);
  expect(new Set(after.map((answer) => answer.instance))).toEqual(
    new Set(['app1', 'app2', 'app3'].filter((name) => name !== victimName)),
  );
  // What the user could have seen: at most one failed or 5xx request (retried by the app).
  const errors = [
    ...failed,
    ...served.filter((answer) => answer.status >= 500).map((answer) => answer.url),
  ];
  expect(errors.length, `errors seen: ${errors.join(', ')}`).toBeLessThanOrEqual(1);
});
