import { AxeBuilder } from '@axe-core/playwright';
import { expect, test } from './fixtures.ts';

/**
 * Issue 25 items 18 and 19: the header logo's accessible name starts with its visible text (axe's
 * experimental label-content-name-mismatch, run on its own), and a keyboard user decides on
 * cookies first and keeps the focus on the page after deciding.
 */
test.describe('public header and cookie banner', () => {
  test('the logo’s name matches its visible text', async ({ page }) => {
    await page.goto('/home');
    await expect(page.getByRole('link', { name: 'DealerPass home' })).toBeVisible();
    const results = await new AxeBuilder({ page })
      .withRules(['label-content-name-mismatch'])
      .analyze();
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
  });

  test('the banner is reached right after the skip link; a choice leaves the focus on the page', async ({
    page,
  }) => {
    await page.goto('/home');
    const banner = page.getByRole('region', { name: 'Cookies on DealerPass' });
    await expect(banner).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    // The banner's own link to the Privacy Notice, then its choices.
    await page.keyboard.press('Tab');
    await expect(banner.getByRole('link', { name: 'Privacy Notice' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(banner.getByRole('button', { name: 'Accept all' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(banner.getByRole('button', { name: 'Essential only' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(banner).toHaveCount(0);
    await expect(page.locator('main#main')).toBeFocused();
    await expect(page.getByTestId('cookie-status')).toHaveText(
      'Your cookie choices have been saved.',
    );
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
  });
});
