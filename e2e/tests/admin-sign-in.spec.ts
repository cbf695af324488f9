import { DEMO_ACCOUNTS } from '../../apps/server/src/services/demo/demo-accounts.ts';
import { E2E_STAFF } from '../fixtures/accounts.ts';
import {
  demoStaff,
  enterTotpCode,
  nextTotpCode,
  signInStaff,
  signInStaffPassword,
} from './admin-steps.ts';
import { acceptEssentialCookies, expect, expectAccessible, signInAs, test } from './fixtures.ts';

/**
 * Issue 19, decision 026: the staff sign-in through the embedded provider's staff page, the
 * first sign-in's TOTP enrolment (RFC 6238 codes computed here), a later sign-in with a code,
 * sign-out; and that a dealer's sign-in page stays the dealers'.
 */

test.describe('operator console sign-in (issue 19)', () => {
  test('a new member enrols an authenticator, signs out, and signs in again with a code', async ({
    page,
  }) => {
    const member = E2E_STAFF.enrol;
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/oidc\/interaction\/[\w-]+$/);
    await acceptEssentialCookies(page);
    // The staff variant: its own heading, no sign-up, no password reset, no legacy username.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('DealerPass staff sign-in');
    await expect(page.getByText('Legacy username')).toHaveCount(0);
    await expect(page.getByRole('link', { name: /forgot/i })).toHaveCount(0);
    await expect(page.getByRole('link', { name: /sign up/i })).toHaveCount(0);
    await expectAccessible(page);

    await signInStaffPassword(page, member.email);
    await expect(page.getByRole('heading', { name: 'Set up your authenticator' })).toBeVisible();
    const shown = (await page.getByTestId('totp-secret').textContent()) ?? '';
    const secret = shown.replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{26,}$/);
    await expect(page.getByRole('img', { name: 'QR code of the setup link' })).toBeVisible();
    await page.getByText('Show the setup link as text').click();
    const uri = (await page.getByTestId('totp-uri').textContent()) ?? '';
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(new URL(uri).searchParams.get('secret')).toBe(secret);
    const codeField = page.getByLabel(/^6-digit code/);
    await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
    await expect(codeField).toHaveAttribute('inputmode', 'numeric');
    await expectAccessible(page);

    // A wrong code is refused and announced; nothing opens.
    const right = await nextTotpCode(secret);
    await codeField.fill(right === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'The code was not accepted' }),
    ).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Console' })).toHaveCount(0);

    await codeField.fill(right);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByTestId('admin-member-name')).toHaveText(member.name);
    await expect(page.getByTestId('admin-member-role')).toHaveText('Support');
    const nav = page.getByRole('navigation', { name: 'Console' });
    await expect(nav.getByRole('link', { name: 'Accounts' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    // Staff are for admins only.
    await expect(nav.getByRole('link', { name: 'Staff' })).toHaveCount(0);

    await nav.getByRole('button', { name: 'Sign out' }).click();
    // The end of sign-out clears the site data on a redirect that marks the page (decision 036).
    await expect(page).toHaveURL(/\/admin\/signed-out(\?cleared)?$/);
    await expect(page.getByRole('heading', { level: 1, name: 'You are signed out' })).toBeVisible();
    expect((await page.request.get('/api/admin/session')).status()).toBe(401);

    // Enrolled now: the next sign-in asks for a code from the same secret.
    await signInStaffPassword(page, member.email);
    await expect(page.getByRole('heading', { name: 'Enter your sign-in code' })).toBeVisible();
    await enterTotpCode(page, secret);
    await expect(page.getByTestId('admin-member-name')).toHaveText(member.name);
  });

  test('an admin signs in with the demo secret and sees the Staff section', async ({ page }) => {
    await signInStaff(page, 'admin', { fresh: true });
    await expect(page.getByTestId('admin-member-role')).toHaveText('Admin');
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Staff' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Staff' })).toBeVisible();
    for (const role of ['support', 'billing', 'admin'] as const) {
      await expect(
        page.getByRole('row', { name: new RegExp(demoStaff(role).email) }),
      ).toBeVisible();
    }
  });

  test('the dealers’ sign-in page is unchanged, and a dealer session opens no console', async ({
    page,
  }) => {
    const dealer = DEMO_ACCOUNTS.find((account) => account.key === 'active')!;
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to DealerPass');
    await expect(page.getByText('Legacy username')).toBeVisible();
    await signInAs(page, dealer);
    await expect(page).toHaveURL(/\/account\/profile$/);
    expect((await page.request.get('/api/admin/session')).status()).toBe(401);
  });
});
