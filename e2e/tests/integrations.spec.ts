import type { Page } from '@playwright/test';
import {
  DEMO_ACCOUNTS,
  type TDemoAccountKey,
} from '../../apps/server/src/services/demo/demo-accounts.ts';
import {
  CARFAX_SANDBOX_PASSWORD,
  CARFAX_SANDBOX_USERS,
} from '../../apps/server/src/sandboxes/carfax/test-users.ts';
import { AUTOCHECK_SANDBOX_CREDENTIALS } from '../../apps/server/src/sandboxes/autocheck/sandbox-autocheck.ts';
import { acceptEssentialCookies, expect, expectAccessible, test } from './fixtures.ts';

/** Signs a demo account in through the embedded provider's page, then opens `path`. */
async function signIn(page: Page, key: TDemoAccountKey, path: string) {
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.key === key)!;
  await page.goto(`/login?returnTo=${encodeURIComponent(path)}`);
  await expect(page).toHaveURL(/\/oidc\/interaction\/[\w-]+$/);
  await acceptEssentialCookies(page);
  await page.getByLabel(/^Email/).fill(account.signIn);
  await page.getByLabel(/^Password/).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[/]/g, '\\/')}$`));
}

const TOKEN = /cfx_(at|rt|code)_/;

test.describe('Carfax (issue 8)', () => {
  test('a demo account with CF connects to the Carfax sandbox, sees connected, signs out and sees not connected', async ({
    page,
  }) => {
    await signIn(page, 'active', '/account/status/carfax');
    const status = page.getByTestId('carfax-status');
    await expect(status).toHaveText('Not connected to Carfax');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Sign in to Carfax' }).click();
    await expect(page).toHaveURL(/\/carfax-sandbox\/oauth2\/authorize\?/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Carfax' })).toBeVisible();
    await expectAccessible(page);
    const dealer = CARFAX_SANDBOX_USERS[0]!;
    await page.getByLabel('Email').fill(dealer.email);
    await page.getByLabel('Password').fill(CARFAX_SANDBOX_PASSWORD);
    await page.getByRole('button', { name: 'Allow' }).click();

    await expect(page).toHaveURL(/\/account\/status\/carfax$/);
    await expect(status).toHaveText('Connected to Carfax');
    await expectAccessible(page);
    // No token anywhere the page can reach.
    const storage = await page.evaluate(() =>
      JSON.stringify({
        local: { ...localStorage },
        session: { ...sessionStorage },
        c: document.cookie,
      }),
    );
    expect(storage).not.toMatch(TOKEN);
    expect(await page.content()).not.toMatch(TOKEN);

    // The integration page shows the same connection.
    await page.goto('/account/carFaxIntegrations');
    await expect(page.getByRole('heading', { level: 1, name: 'Carfax integration' })).toBeVisible();
    await expect(status).toHaveText('Connected to Carfax');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Sign out of Carfax' }).click();
    await expect(page).toHaveURL(/\/account\/status\/carfax$/);
    await expect(page.getByText('You have been signed out of Carfax.')).toBeVisible();
    await expect(status).toHaveText('Not connected to Carfax');
    const api = await page.request.get('/api/v2/oauth/carfax/status');
    expect(api.status()).toBe(404);
  });

  test('a state mismatch on the callback is refused: no token request, the status page says why', async ({
    page,
  }) => {
    await signIn(page, 'active', '/account/status/carfax');
    await expect(page.getByTestId('carfax-status')).toHaveText('Not connected to Carfax');
    const tokenRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v2/oauth/carfax/tokens')) tokenRequests.push(request.url());
    });
    await page.evaluate(() =>
      sessionStorage.setItem(
        'dp.carfax.signIn',
        JSON.stringify({ state: 'a'.repeat(64), returnTo: '/account/status/carfax' }),
      ),
    );
    await page.goto(`/account/carfax/login?code=cfx_code_forged&state=${'b'.repeat(64)}`);
    await expect(page).toHaveURL(/\/account\/status\/carfax$/);
    await expect(
      page.getByRole('alert').filter({ hasText: 'The Carfax sign-in could not be verified' }),
    ).toBeVisible();
    await expect(page.getByTestId('carfax-status')).toHaveText('Not connected to Carfax');
    await expectAccessible(page);
    // Without any stored sign-in the callback is refused the same way.
    await page.goto(`/account/carfax/login?code=cfx_code_forged&state=${'a'.repeat(64)}`);
    await expect(page).toHaveURL(/\/account\/status\/carfax$/);
    await expect(
      page.getByText('The Carfax sign-in could not be verified', { exact: false }),
    ).toBeVisible();
    expect(tokenRequests).toEqual([]);
  });

  test('a refused token exchange lands on the status page with the error, the code gone from the address (issue 14.13)', async ({
    page,
  }) => {
    await signIn(page, 'active', '/account/status/carfax');
    await page.getByRole('button', { name: 'Sign in to Carfax' }).click();
    await expect(page).toHaveURL(/\/carfax-sandbox\/oauth2\/authorize\?/);
    const inactive = CARFAX_SANDBOX_USERS.find((user) => user.failure === 'INACTIVE_DEALER')!;
    await page.getByLabel('Email').fill(inactive.email);
    await page.getByLabel('Password').fill(CARFAX_SANDBOX_PASSWORD);
    await page.getByRole('button', { name: 'Allow' }).click();

    await expect(page).toHaveURL(/\/account\/status\/carfax$/);
    const panel = page.getByRole('alert').filter({ hasText: 'An error has occurred.' });
    await expect(panel).toContainText('Unable to fetch Carfax tokens!');
    await expect(panel).toContainText('1-800-555-0199');
    await expect(page.getByTestId('carfax-status')).toHaveText('Not connected to Carfax');
    expect(page.url()).not.toContain('code=');
    await expectAccessible(page);
  });

  test("a failed configuration call shows 'Unable to get configuration' in the error panel", async ({
    page,
  }) => {
    await signIn(page, 'active', '/account/status/carfax');
    await page.route('**/api/v2/config/env', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }),
    );
    await page.goto('/account/carFaxIntegrations');
    const panel = page.getByRole('alert').filter({ hasText: 'An error has occurred.' });
    await expect(panel).toContainText('Unable to get configuration');
    await expect(panel).toContainText('1-800-555-0199');
    await expectAccessible(page);
  });

  test('an active account without CF is sent to its profile; the server refuses it too', async ({
    page,
  }) => {
    await signIn(page, 'validatingPayment', '/account/karid/connect');
    await page.goto('/account/status/carfax');
    await expect(page).toHaveURL(/\/account\/profile$/);
    expect((await page.request.get('/api/v2/oauth/carfax/status')).status()).toBe(403);
  });
});

test.describe('AutoCheck (issue 8)', () => {
  test('wrong credentials mark both fields, the test credentials save, auto-purchase posts its note', async ({
    page,
  }) => {
    const [demo, other] = AUTOCHECK_SANDBOX_CREDENTIALS;
    await signIn(page, 'active', '/account/autoCheckIntegrations');
    await expect(
      page.getByRole('heading', { level: 1, name: 'AutoCheck integration' }),
    ).toBeVisible();
    const id = page.getByLabel('AutoCheck ID');
    const password = page.getByLabel('AutoCheck password');
    await expect(id).toHaveValue(demo!.autoCheckId);
    await expect(page.getByText('A password is saved.', { exact: false })).toBeVisible();
    await expectAccessible(page);

    await id.fill(other!.autoCheckId);
    await password.fill('Wrong!Pass9');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(id).toHaveAttribute('aria-invalid', 'true');
    await expect(password).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#autocheck-id-error')).toHaveText(
      'Invalid credentials. Please try again.',
    );
    await expect(page.locator('#autocheck-password-error')).toHaveText(
      'Invalid credentials. Please try again.',
    );
    // 000 §8: the summary lists a message once, however many fields carry it.
    await expect(page.locator('.error-summary li')).toHaveText([
      'Invalid credentials. Please try again.',
    ]);
    await expectAccessible(page);

    await password.fill(other!.password);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Changes have been saved.')).toBeVisible();
    await expect(id).not.toHaveAttribute('aria-invalid', 'true');
    await expect(password).toHaveValue('');
    const saved = (await (await page.request.get('/api/users/current')).json()).data;
    expect(saved).toMatchObject({ autoCheckId: other!.autoCheckId, autoCheckPasswdSet: true });
    expect(JSON.stringify(saved)).not.toContain(other!.password);

    // Toggling auto-purchase posts the debug note, each way.
    const autoPurchase = page.getByLabel('Buy AutoCheck reports automatically');
    for (const [check, word] of [
      [true, 'enabled'],
      [false, 'disabled'],
    ] as const) {
      const note = page.waitForRequest(
        (request) => request.url().endsWith('/api/log') && request.method() === 'POST',
      );
      if (check) await autoPurchase.check();
      else await autoPurchase.uncheck();
      const body = (await note).postDataJSON() as { message: string; url: string };
      expect(body.message).toBe(`AutoCheck auto-purchase ${word}`);
      expect(body.url).toContain('/account/autoCheckIntegrations');
    }

    // Put the demo account back as it was for the other tests.
    await id.fill(demo!.autoCheckId);
    await password.fill(demo!.password);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Changes have been saved.').first()).toBeVisible();
    const restored = (await (await page.request.get('/api/users/current')).json()).data;
    expect(restored).toMatchObject({
      autoCheckId: demo!.autoCheckId,
      autoCheckEnabled: true,
      autoCheckAutoPurchase: false,
    });
  });

  test('the form rules show before anything is sent', async ({ page }) => {
    await signIn(page, 'active', '/account/autoCheckIntegrations');
    await page.getByLabel('I agree to the AutoCheck integration terms').uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('#autocheck-agree-error')).toHaveText(
      'You must agree to the AutoCheck integration terms.',
    );
    await expect(page.getByRole('alert').filter({ hasText: 'There is a problem' })).toBeVisible();
    await expectAccessible(page);
  });
});
