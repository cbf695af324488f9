import type { Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../../apps/server/src/services/demo/demo-accounts.ts';
import { acceptEssentialCookies, expect, expectAccessible, test } from './fixtures.ts';

/**
 * The identity pages that stand on their own (docs/decisions/009): what /authlogin says for each
 * reason, /authlogout, the password pages' forms, the provider sign-in page for an interaction
 * that does not exist; then, with the demo accounts, the reset-password round trip and the
 * DealerPass ID page of a migrated account. The sign-in itself is tested in sign-in.spec.ts.
 */

async function expectPublicLayout(page: Page) {
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
}

/** React Router reads navigation state from history.state.usr; this is what navigate(…, { state }) leaves. */
async function navigateWithState(page: Page, path: string, state: unknown) {
  await page.evaluate(
    ({ path, state }) => {
      const next = { usr: state, key: 'e2e', idx: (window.history.state?.idx ?? 0) + 1 };
      window.history.pushState(next, '', path);
      window.dispatchEvent(new PopStateEvent('popstate', { state: next }));
    },
    { path, state },
  );
}

test.describe('/authlogin', () => {
  test('has a Sign in button that goes to the server’s /login, and no WCAG 2.1 A/AA violation', async ({
    page,
  }) => {
    await page.goto('/authlogin');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expectPublicLayout(page);
    await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute(
      'href',
      '/login',
    );
    await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/identity/forgot-password',
    );
    await expect(page.getByTestId('session-notice')).toHaveCount(0);
    await expect(page.getByTestId('blocked-notice')).toHaveCount(0);
    await expectAccessible(page);
    await acceptEssentialCookies(page);
    await expectAccessible(page);
  });

  test('explains each err, and says nothing for an unknown one', async ({ page }) => {
    // One page, several visits: the browser keeps the app's files, so the server sees few requests.
    for (const [err, text] of [
      ['2', 'Your session has ended. Please sign in again.'],
      ['1', 'You were signed out because your account was signed in somewhere else.'],
      ['3', 'Signing in did not work. Please try again.'],
      ['4', 'This DealerPass ID is not connected to a DealerPass account.'],
    ] as const) {
      await page.goto(`/authlogin?err=${err}`);
      await acceptEssentialCookies(page);
      await expect(page.getByTestId('session-notice')).toContainText(text);
      await expectAccessible(page);
    }
    await page.goto('/authlogin?err=9');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.getByTestId('session-notice')).toHaveCount(0);
  });

  test('a blocked account, sent here with blocked in navigation state, is told to call support', async ({
    page,
  }) => {
    await page.goto('/home');
    await acceptEssentialCookies(page);
    await navigateWithState(page, '/authlogin', { blocked: true });
    await expect(page).toHaveURL(/\/authlogin$/);
    const notice = page.getByTestId('blocked-notice');
    await expect(notice).toContainText('Your account has been blocked');
    await expect(notice.getByRole('link', { name: '1-800-555-0199' })).toHaveAttribute(
      'href',
      'tel:1-800-555-0199',
    );
    await expectAccessible(page);

    // The state belongs to that history entry: a new visit is not blocked.
    await page.goto('/authlogin?err=2');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.getByTestId('blocked-notice')).toHaveCount(0);
  });
});

test('/authlogout says the user has signed out and offers to sign in again', async ({ page }) => {
  await page.goto('/authlogout');
  await expect(page.getByRole('heading', { level: 1, name: 'You have signed out.' })).toBeVisible();
  await expectPublicLayout(page);
  await expect(page.getByRole('link', { name: 'Sign in again' })).toHaveAttribute('href', '/login');
  await expectAccessible(page);
  await acceptEssentialCookies(page);
  await expectAccessible(page);
});

test.describe('password pages', () => {
  test('forgot password: a failed submit focuses the summary, whose links lead to the fields', async ({
    page,
  }) => {
    await page.goto('/identity/forgot-password');
    await acceptEssentialCookies(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Forgot password' })).toBeVisible();
    await expectAccessible(page);

    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
    await expect(summary).toBeFocused();
    await expect(summary).toContainText('Email not valid.');
    await expect(summary).toContainText('reCAPTCHA required to prove you’re not a robot.');
    await expectAccessible(page);

    // Keyboard only: from the summary to the field it names.
    await page.keyboard.press('Tab');
    await expect(summary.getByRole('link', { name: 'Email not valid.' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Email')).toBeFocused();
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  test('set password: the rule is shown as a hint, and the confirmation must match', async ({
    page,
  }) => {
    await page.goto(`/identity/set-password?token=${'A'.repeat(43)}`);
    await acceptEssentialCookies(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Set your password' })).toBeVisible();
    const password = page.getByRole('textbox', { name: 'New password', exact: true });
    await expect(password).toHaveAccessibleDescription(/At least 8 characters and no spaces/);
    await expectAccessible(page);

    await password.fill('Str0ng!Pass');
    await page.getByLabel('Confirm new password').fill('Str0ng!Pasz');
    await page.getByRole('button', { name: 'Set password' }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
    await expect(summary).toBeFocused();
    await expect(summary).toContainText('Confirm password does not meet requirements');
    await expectAccessible(page);
  });

  test('a link without a usable token offers a new one', async ({ page }) => {
    for (const path of ['/identity/set-password', '/identity/reset-password?token=short']) {
      await page.goto(path);
      await acceptEssentialCookies(page);
      await expect(
        page.getByRole('alert').filter({
          hasText:
            'Reset attempt was unsuccessful. Please use the most recent link or contact Customer Support.',
        }),
      ).toBeVisible();
      await page.getByRole('link', { name: 'Request a new link' }).click();
      await expect(page).toHaveURL(/\/identity\/forgot-password$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Forgot password' })).toBeVisible();
    }
  });
});

test('the sign-in page of an interaction that does not exist offers a fresh start', async ({
  page,
}) => {
  await page.goto('/oidc/interaction/no-such-interaction-0001');
  await acceptEssentialCookies(page);
  await expect(page.getByRole('heading', { level: 1, name: /^Sign in to/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Start signing in again' })).toHaveAttribute(
    'href',
    '/login',
  );
  await expectAccessible(page);
});

test.describe('with the server’s demo accounts', () => {
  async function solveCaptcha(page: Page) {
    await page.getByLabel('I’m not a robot').click();
    await expect(page.getByText('Verified.')).toBeVisible({ timeout: 30_000 });
  }

  test('forgot password: an unknown e-mail is told so; a known one gets a link that resets the password and leads to sign-in with the e-mail filled in', async ({
    page,
  }) => {
    const email = 'pending-cancel@example.com';
    await page.goto('/identity/forgot-password');
    await acceptEssentialCookies(page);

    await page.getByLabel('Email').fill('nobody-here@example.com');
    await solveCaptcha(page);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const refused = page
      .getByRole('alert')
      .filter({ hasText: 'Username was not found. Please try again.' });
    await expect(refused).toBeFocused();
    await expect(page.getByLabel('I’m not a robot')).not.toBeChecked(); // spent: a new one is needed
    await expectAccessible(page);

    await page.getByLabel('Email').fill(email);
    await solveCaptcha(page);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeFocused();
    await expect(page.getByText(email)).toBeVisible();

    await page.goto('/dev/mailbox');
    const mail = page.getByRole('listitem').filter({ hasText: `To ${email}` });
    await mail.getByText(/Reset your .* password/).click();
    await mail.getByRole('link', { name: /\/identity\/reset-password\?token=/ }).click();

    await expect(
      page.getByRole('heading', { level: 1, name: 'Reset your password' }),
    ).toBeVisible();
    // The demo password again, so the account stays as the other tests expect it.
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(DEMO_PASSWORD);
    await page.getByLabel('Confirm new password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page.getByRole('heading', { name: 'Your password has been reset' })).toBeFocused();
    await expectAccessible(page);

    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/oidc\/interaction\/[\w-]+$/);
    await expect(page.getByLabel(/^Email/)).toHaveValue(email);
    await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/account\/profile$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Account Information' }),
    ).toBeVisible();
  });

  test('a reset link the server does not know is refused, with a way to ask for a new one', async ({
    page,
  }) => {
    await page.goto('/identity/reset-password?token=' + 'x'.repeat(43));
    await acceptEssentialCookies(page);
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('Str0ng!Pass');
    await page.getByLabel('Confirm new password').fill('Str0ng!Pass');
    await page.getByRole('button', { name: 'Reset password' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Your password was not saved' });
    await expect(alert).toBeFocused();
    await expect(alert.getByRole('link', { name: 'Request a new link' })).toBeVisible();
    await expectAccessible(page);
  });

  test('a migrated account is shown as not linked and can open the DealerPass ID page, keyboard only', async ({
    page,
  }) => {
    await page.goto('/login');
    await expect(page).toHaveURL(/\/oidc\/interaction\/[\w-]+$/);
    await acceptEssentialCookies(page);
    await expect(page.getByRole('heading', { level: 1, name: /^Sign in to/ })).toBeVisible();
    await expectAccessible(page);

    // The two ways are a radio group: arrow keys switch, and what was typed stays.
    const dealerPassId = page.getByRole('radio', { name: 'DealerPass ID' });
    await expect(dealerPassId).toBeChecked();
    await page.getByLabel(/^Email/).fill('typed@example.com');
    await dealerPassId.focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('radio', { name: 'Legacy username' })).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel(/^Username/)).toBeFocused();
    await page.keyboard.type('migrated.dealer');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel(/^Password/)).toBeFocused();
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');

    await expect(page).toHaveURL(/\/account\/profile$/);
    await expect(page.getByText('Signed in as')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/logout');
    await page.getByRole('link', { name: 'Create or link your DealerPass ID' }).click();
    await expect(page).toHaveURL(/\/account\/karid\/connect$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Your DealerPass ID' })).toBeVisible();
    await expectAccessible(page);

    // Linking with the wrong password is refused; nothing changes on the account.
    await page.getByRole('radio', { name: 'Link an existing DealerPass ID' }).check();
    await page.getByLabel(/^Email/).fill('active@example.com');
    await page.getByLabel(/^Password/).fill('Not-the-password1!');
    await page.getByRole('button', { name: 'Link DealerPass ID' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'was not connected' });
    await expect(refused).toBeFocused();
    await expectAccessible(page);
  });
});
