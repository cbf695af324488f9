import type { Page } from '@playwright/test';
import { DEMO_ACCOUNTS } from '../../apps/server/src/services/demo/demo-accounts.ts';
import { expect, signInAs, test } from './fixtures.ts';

/**
 * Issue 14: the account area's layout. The cancel form is styled however the user got there, and
 * on a phone the account navigation folds away so the page starts on the first screen.
 */

const demo = (key: string) => DEMO_ACCOUNTS.find((account) => account.key === key)!;
const nav = (page: Page) => page.getByRole('navigation', { name: 'Account' });

/** The computed styles that make the reason radios a styled group rather than browser defaults. */
async function reasonGroupStyles(page: Page) {
  const group = page.getByRole('group', { name: 'Why are you cancelling?' });
  await expect(group).toBeVisible();
  return group.evaluate((fieldset) => {
    const choice = fieldset.querySelector('input[type="radio"]')!.parentElement!;
    const pick = (element: Element, names: string[]) => {
      const style = getComputedStyle(element);
      return Object.fromEntries(names.map((name) => [name, style.getPropertyValue(name)]));
    };
    return {
      fieldset: pick(fieldset, ['border-top-width', 'padding-left', 'margin-bottom']),
      choice: pick(choice, ['display', 'column-gap', 'padding-top']),
    };
  });
}

async function openCancelForm(page: Page) {
  await nav(page).getByRole('link', { name: 'Subscriptions' }).click();
  await page.getByRole('link', { name: 'Cancel Subscription' }).click();
  await expect(page).toHaveURL(/\/account\/subscriptions\/cancel$/);
}

test.describe('account layout (issue 14)', () => {
  test('the cancel form looks the same on a fresh load as after other pages', async ({ page }) => {
    // Signing in ends with a full page load of /account: nothing from the sign-in page is loaded.
    await signInAs(page, demo('migrated'));
    await expect(page).toHaveURL(/\/account\/profile$/);
    await openCancelForm(page);
    const fresh = await reasonGroupStyles(page);
    expect(fresh.choice.display).toBe('grid');

    // The DealerPass ID page shows the same radio group component; open it first this time.
    await page.goto('/account/karid/connect');
    await expect(page.getByRole('heading', { level: 1, name: 'Your DealerPass ID' })).toBeVisible();
    await openCancelForm(page);
    expect(await reasonGroupStyles(page)).toEqual(fresh);
  });

  test('on a phone the navigation folds behind a button and the page starts on the first screen', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await signInAs(page, demo('active'));
    await expect(page).toHaveURL(/\/account\/profile$/);
    const heading = page.getByRole('heading', { level: 1, name: 'Account Information' });
    await expect(heading).toBeInViewport();

    const toggle = nav(page).getByRole('button', { name: /Account menu/ });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toContainText('Account Information');
    await expect(nav(page).getByRole('link')).toHaveCount(0);

    // Keyboard: open, Escape folds it back onto the button, open again and follow a link.
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(nav(page).getByRole('link')).toHaveText([
      'Account Information',
      'Billing Details',
      'Subscriptions',
      'Carfax',
      'AutoCheck',
      'Logout',
    ]);
    await page.keyboard.press('Tab');
    await expect(nav(page).getByRole('link', { name: 'Account Information' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(toggle).toBeFocused();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('Enter');
    await nav(page).getByRole('link', { name: 'Billing Details' }).click();
    await expect(page).toHaveURL(/\/account\/billing$/);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toContainText('Billing Details');
    await expect(page.getByRole('heading', { level: 1, name: 'Billing Details' })).toBeInViewport();

    // On a wide screen the list is always there and the button is not.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(toggle).toBeHidden();
    await expect(nav(page).getByRole('link')).toHaveCount(6);
  });
});
