import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { serverUrl } from '../servers.ts';

/**
 * Shared fixtures: every page fails its test on a CSP violation or an uncaught error, and
 * `expectAccessible` runs axe-core for WCAG 2.0, 2.1 and 2.2 A and AA. Every page and context
 * (also `browser.newContext()`) talks to its worker's own server (servers.ts).
 */
export const test = base.extend<{ problems: string[] }>({
  // The multi-instance config names its balancer instead (E2E_BASE_URL).
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function names
  baseURL: async ({}, use, testInfo) =>
    use(process.env.E2E_BASE_URL ?? serverUrl(testInfo.parallelIndex)),
  problems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        const text = message.text();
        if (message.type() === 'error' && /Content Security Policy|Refused to/.test(text))
          problems.push(`CSP: ${text}`);
      });
      await use(problems);
      expect(problems, 'no CSP violations or uncaught errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  const summary = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
  expect(summary, 'axe-core WCAG 2.2 A/AA violations').toEqual([]);
}

/** Decides the cookie banner so it does not cover the page under test. */
export async function acceptEssentialCookies(page: Page): Promise<void> {
  const banner = page.getByRole('region', { name: 'Cookies on DealerPass' });
  if (await banner.isVisible())
    await banner.getByRole('button', { name: 'Essential only' }).click();
}

/** Signs in through the embedded provider's page, as a person does (DealerPass ID or legacy username). */
export async function signInAs(
  page: Page,
  account: { method: 'email' | 'legacy'; signIn: string; password: string },
  start = '/login',
): Promise<void> {
  await page.goto(start);
  await expect(page).toHaveURL(/\/oidc\/interaction\/[\w-]+$/);
  await acceptEssentialCookies(page);
  if (account.method === 'legacy') {
    await page.getByLabel('Legacy username').check();
    await page.getByLabel(/^Username/).fill(account.signIn);
  } else {
    await page.getByLabel(/^Email/).fill(account.signIn);
  }
  await page.getByLabel(/^Password/).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
