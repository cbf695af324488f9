import type { Page } from '@playwright/test';
import { acceptEssentialCookies, expect, expectAccessible, test } from './fixtures.ts';

/**
 * The identity pages that stand on their own (docs/decisions/009): what /authlogin says for each
 * reason, /authlogout, the password pages' forms, and the provider sign-in page for an interaction
 * that does not exist. The whole sign-in with a demo account is in its own test.
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

  for (const [err, text] of [
    ['2', 'Your session has ended. Please sign in again.'],
    ['1', 'You were signed out because your account was signed in somewhere else.'],
    ['3', 'Signing in did not work. Please try again.'],
    ['4', 'This DealerPass ID is not connected to a DealerPass account.'],
  ] as const) {
    test(`explains err=${err}`, async ({ page }) => {
      await page.goto(`/authlogin?err=${err}`);
      await acceptEssentialCookies(page);
      await expect(page.getByTestId('session-notice')).toContainText(text);
      await expectAccessible(page);
    });
  }

  test('an unknown err says nothing', async ({ page }) => {
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

  for (const path of ['/identity/set-password', '/identity/reset-password?token=short']) {
    test(`${path} without a usable token offers a new link`, async ({ page }) => {
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
    });
  }
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
