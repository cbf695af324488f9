import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import {
  DEMO_ACCOUNTS,
  type TDemoAccountKey,
} from '../../apps/server/src/services/demo/demo-accounts.ts';
import { acceptEssentialCookies, expect, expectAccessible, signInAs, test } from './fixtures.ts';

function demo(key: TDemoAccountKey) {
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.key === key);
  if (!account) throw new Error(`no demo account ${key}`);
  return account;
}

/** Signs in as a demo account through the embedded provider's page, as a person does. */
const signIn = (page: Page, key: TDemoAccountKey, start = '/login') =>
  signInAs(page, demo(key), start);

const TOKEN_PATTERN = /eyJ[\w-]{10,}\.eyJ[\w-]{10,}/;

async function browserStorage(page: Page): Promise<string> {
  return page.evaluate(() =>
    JSON.stringify({
      local: { ...localStorage },
      session: { ...sessionStorage },
      cookies: document.cookie,
    }),
  );
}

test.describe('sign-in through the embedded provider (issue 4)', () => {
  test('a demo account signs in, lands on /account, stays signed in after a reload, and signs out', async ({
    page,
    context,
  }) => {
    await signIn(page, 'active');
    await expect(page).toHaveURL(/\/account\/profile$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Account Information' }),
    ).toBeVisible();
    await expectAccessible(page);

    // No provider token anywhere the page can reach; the session cookie is HttpOnly.
    expect(await browserStorage(page)).not.toMatch(TOKEN_PATTERN);
    const session = (await context.cookies()).find((cookie) => cookie.name === '__Host-dp-session');
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });

    await page.reload();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Account Information' }),
    ).toBeVisible();

    await page.getByRole('link', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/authlogout$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    // The old cookie is dead: replayed by hand, it gets 403 invalidToken.
    const replay = await page.request.get('/api/users/current', {
      headers: { cookie: `__Host-dp-session=${session!.value}` },
    });
    expect(replay.status()).toBe(403);
    expect(await replay.json()).toBe('invalidToken');
  });

  test('going to an account page signed out signs in first and comes back to it', async ({
    page,
  }) => {
    await page.goto('/account/karid/connect');
    await expect(page).toHaveURL(/\/oidc\/interaction\//);
    await acceptEssentialCookies(page);
    const account = demo('active');
    await page.getByLabel(/^Email/).fill(account.signIn);
    await page.getByLabel(/^Password/).fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/account\/karid\/connect$/);
  });

  test('a wrong password is refused with the message, and nothing is lost', async ({ page }) => {
    await page.goto('/login');
    await acceptEssentialCookies(page);
    await page.getByLabel(/^Email/).fill('active@example.com');
    await page.getByLabel(/^Password/).fill('Not-the-password1!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Invalid credentials. Please try again.' }),
    ).toBeVisible();
    await expect(page.getByLabel(/^Email/)).toHaveValue('active@example.com');
    await expectAccessible(page);
  });

  test('after repeated wrong passwords the form asks for a captcha, and the right password with one gets in', async ({
    page,
  }) => {
    // docs/decisions/016: failures never lock the owner out; they make each attempt solve a captcha.
    const account = demo('complimentary');
    await page.goto('/login');
    await acceptEssentialCookies(page);
    await page.getByLabel(/^Email/).fill(account.signIn);
    const invalid = page
      .getByRole('alert')
      .filter({ hasText: 'Invalid credentials. Please try again.' });
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await page.getByLabel(/^Password/).fill(`Not-the-password${attempt}!`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(invalid).toBeVisible();
      await expect(page.getByLabel(/^Password/)).toHaveValue('');
    }
    await expect(page.getByLabel('I’m not a robot')).toHaveCount(0);
    // The right password alone is now refused with the reason, and the captcha appears.
    await page.getByLabel(/^Password/).fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Please confirm you are not a robot' }),
    ).toBeVisible();
    const robot = page.getByLabel('I’m not a robot');
    await expect(robot).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeDisabled();
    await expectAccessible(page);
    await page.getByLabel(/^Password/).fill(account.password);
    await robot.click();
    await expect(page.getByText('Verified.')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/account\//);
  });

  test('a blocked account is sent to /authlogin with the blocked message', async ({ page }) => {
    await signIn(page, 'blocked');
    await expect(page).toHaveURL(/\/authlogin$/);
    await expect(page.getByText(/blocked/i).first()).toBeVisible();
  });

  test('a migrated account signs in with its legacy username', async ({ page }) => {
    await signIn(page, 'migrated');
    await expect(page).toHaveURL(/\/account\/profile$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Account Information' }),
    ).toBeVisible();
  });

  test('a second sign-in elsewhere ends the first session: its next call sends it to sign in with err=1', async ({
    page,
    browser,
  }) => {
    await signIn(page, 'complimentary');
    await expect(page).toHaveURL(/\/account\/profile$/);

    const other = await (browser as Browser).newContext();
    const otherPage = await other.newPage();
    await signIn(otherPage, 'complimentary');
    await expect(otherPage).toHaveURL(/\/account\/profile$/);
    await other.close();

    await page.reload();
    await expect(page).toHaveURL(/\/authlogin\?err=1$/);
  });

  test('the built JavaScript holds no secret, key or token', () => {
    const dist = fileURLToPath(new URL('../../apps/web/dist/assets/', import.meta.url));
    for (const file of readdirSync(dist).filter((name) => name.endsWith('.js'))) {
      const code = readFileSync(join(dist, file), 'utf8');
      expect(code, file).not.toMatch(TOKEN_PATTERN);
      expect(code, file).not.toMatch(/client_secret|BEGIN (RSA )?PRIVATE KEY|"d":"[\w-]{40,}"/);
      expect(code, file).not.toContain('Demo!Pass2026');
    }
  });
});
