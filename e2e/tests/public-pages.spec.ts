import { acceptEssentialCookies, expect, expectAccessible, test } from './fixtures.ts';

const PUBLIC_PAGES = [
  { path: '/home', heading: /./ },
  { path: '/terms', heading: /terms/i },
  { path: '/contact', heading: 'Contact Us' },
  { path: '/snapshot/expired', heading: 'SNAPSHOT LINK EXPIRED' },
  { path: '/dev/mailbox', heading: 'Development mailbox' },
];

test.describe('public pages', () => {
  for (const { path, heading } of PUBLIC_PAGES) {
    test(`${path} renders in the public layout with no WCAG 2.1 A/AA violation`, async ({
      page,
    }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText([
        'Home',
        'Launch Application',
        'Account',
      ]);
      const footer = page.getByRole('contentinfo');
      await expect(footer.getByRole('link', { name: 'Terms of Use' })).toHaveAttribute(
        'href',
        '/terms#terms',
      );
      await expect(footer.getByRole('link', { name: 'Privacy Notice' })).toHaveAttribute(
        'href',
        '/terms#privacy',
      );
      await expect(footer.getByRole('link', { name: 'Exercise Your Rights' })).toBeVisible();
      await expect(footer.getByRole('button', { name: 'Manage Cookies' })).toBeVisible();
      await expect(footer).toContainText(`© 2008–${new Date().getFullYear()}`);
      await expectAccessible(page); // with the cookie banner showing
      await acceptEssentialCookies(page);
      await expectAccessible(page);
    });
  }

  test('no public page is wider than a phone screen', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    for (const { path } of PUBLIC_PAGES) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    }
  });

  test('the root and any unknown path land on /home', async ({ page }) => {
    for (const path of ['/', '/no/such/page', '/account-typo?x=1']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/home$/);
    }
  });

  test('unknown API paths answer JSON 404, not the app', async ({ request }) => {
    const response = await request.get('/api/no-such-thing');
    expect(response.status()).toBe(404);
    expect(await response.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });

  test('the terms anchors scroll to their sections', async ({ page }) => {
    for (const anchor of ['terms', 'privacy', 'refund']) {
      await page.goto(`/terms#${anchor}`);
      const section = page.locator(`#${anchor}`);
      await expect(section).toBeInViewport();
    }
    // and from the footer, within the app
    await page.goto('/home');
    await acceptEssentialCookies(page);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Notice' }).click();
    await expect(page).toHaveURL(/\/terms#privacy$/);
    await expect(page.locator('#privacy')).toBeInViewport();
  });

  test('the expired-link page shows the specified texts and the support phone', async ({
    page,
  }) => {
    await page.goto('/snapshot/expired');
    await expect(
      page.getByText(
        'This link has expired and can no longer be viewed. Please request a new link from the original sender.',
      ),
    ).toBeVisible();
    await expect(page.locator('a[href^="tel:"]').first()).toContainText('1-800-555-0199');
  });

  test('every navigation emits a history-change event, even one left before its page loaded', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      const log: string[] = [];
      (window as unknown as { historyEvents: string[] }).historyEvents = log;
      window.addEventListener('dealerpass:analytics', (event) => {
        const detail = (event as CustomEvent<{ name: string; path: string }>).detail;
        if (detail.name === 'history change') log.push(detail.path);
      });
    });
    const events = () =>
      page.evaluate(() => (window as unknown as { historyEvents: string[] }).historyEvents);
    await page.goto('/home');
    await acceptEssentialCookies(page);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Use' }).click();
    await expect(page.getByRole('heading', { level: 1, name: /terms/i })).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/home$/);
    await expect.poll(events).toEqual(['/home', '/terms', '/home']);

    // The contact page's code arrives slowly; the visitor goes back before it has loaded.
    await page.route('**/assets/contact-page-*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Notice' }).click();
    await expect(page).toHaveURL(/\/terms#privacy$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/home$/);
    await page
      .getByRole('link', { name: /contact us/i })
      .first()
      .click();
    await expect(page).toHaveURL(/\/contact$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/home$/);
    await expect
      .poll(events)
      .toEqual(['/home', '/terms', '/home', '/terms', '/home', '/contact', '/home']);
  });

  test('the page carries the CSRF token and referrer origin, and the server sends a strict CSP', async ({
    page,
  }) => {
    const response = await page.goto('/home');
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(response?.headers()['x-content-type-options']).toBe('nosniff');
    await expect(page.locator('meta[name="csrf-token"]')).toHaveAttribute('content', /^[\w-]{43}$/);
    await expect(page.locator('meta[name="referrer-origin"]')).toHaveAttribute(
      'content',
      /^http:\/\/localhost:\d+$/,
    );
  });
});

test.describe('cookie consent', () => {
  test('the choice is kept across visits and can be changed under Manage Cookies', async ({
    page,
  }) => {
    await page.goto('/home');
    const banner = page.getByRole('region', { name: 'Cookies on DealerPass' });
    await expect(banner).toBeVisible();
    await banner.getByRole('button', { name: 'Essential only' }).click();
    await expect(banner).toBeHidden();

    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(banner).toBeHidden();

    // Keyboard only: open the dialog from the footer, focus lands inside, Escape returns it.
    const manage = page.getByRole('contentinfo').getByRole('button', { name: 'Manage Cookies' });
    await manage.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Manage Cookies' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Functional')).not.toBeChecked();
    await dialog.getByLabel('Functional').check();
    await dialog.getByRole('button', { name: 'Save choices' }).click();
    await expect(dialog).toBeHidden();
    await expect(manage).toBeFocused();

    const stored = await page.evaluate(() =>
      JSON.parse(localStorage.getItem('dp.cookieConsent') ?? 'null'),
    );
    expect(stored).toMatchObject({ functional: true, analytics: false });
  });
});
