import { DEMO_ACCOUNTS } from '../../apps/server/src/services/demo/demo-accounts.ts';
import { entryKey, readManifest, staticClosure } from '../../bench/vite-manifest.ts';
import { expect, signInAs, test } from './fixtures.ts';

/**
 * Issue 19, decision 026: the operator console is chunks of its own. None of its code (its
 * layout, the admin feature's modules, the QR encoder) is in the first load of a public page or
 * of the account area: neither in the build's static import graph from the entry, nor among the
 * scripts a browser fetches there; nor the staff sign-in form on the dealers' sign-in page; nor
 * its styles in the stylesheet every page loads.
 */

const manifest = readManifest();

const isConsoleCode = (key: string) =>
  key.startsWith('src/features/admin/') ||
  key === 'src/app/layouts/admin-layout.tsx' ||
  key === 'src/features/auth/components/staff-sign-in-form.tsx' ||
  key.includes('node_modules/uqr/');

const PAGES = [
  'src/features/marketing/routes/home-page.tsx',
  'src/features/contact/routes/contact-page.tsx',
  'src/features/auth/routes/sign-in-page.tsx',
  'src/app/layouts/account-layout.tsx',
  'src/features/account/routes/profile-page.tsx',
  'src/features/account/routes/billing-page.tsx',
];

test('no console code is in the first load of the public and account pages', async ({ page }) => {
  const entry = entryKey(manifest);
  const consoleKeys = Object.keys(manifest).filter(isConsoleCode);
  // The console exists as chunks of its own (else this test would prove nothing).
  expect(consoleKeys).toEqual(
    expect.arrayContaining([
      'src/app/layouts/admin-layout.tsx',
      'src/features/admin/routes/account-page.tsx',
      'src/features/admin/components/totp-qr-code.tsx',
      'src/features/auth/components/staff-sign-in-form.tsx',
    ]),
  );
  for (const first of PAGES) {
    const loaded = [...staticClosure(manifest, [entry, first])];
    expect(loaded.filter(isConsoleCode), first).toEqual([]);
  }

  const consoleFiles = new Set(consoleKeys.map((key) => `/${manifest[key]!.file}`));
  const fetched: string[] = [];
  const stylesheets = new Set<string>();
  page.on('request', (request) => {
    if (request.resourceType() === 'script') fetched.push(new URL(request.url()).pathname);
    if (request.resourceType() === 'stylesheet') stylesheets.add(request.url());
  });
  for (const path of ['/home', '/contact']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  await signInAs(
    page,
    DEMO_ACCOUNTS.find((account) => account.key === 'active')!,
  );
  await expect(page).toHaveURL(/\/account\/profile$/);
  await page.goto('/account/billing');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(fetched.length).toBeGreaterThan(0);
  expect(fetched.filter((file) => consoleFiles.has(file))).toEqual([]);

  // The app's one stylesheet (decision 027) holds none of the console's rules: those come in a
  // file of their own, linked by the console's layout.
  expect(stylesheets.size).toBeGreaterThan(0);
  for (const url of stylesheets) {
    expect(await (await page.request.get(url)).text(), url).not.toContain('.admin-header');
  }
  await page.goto('/admin/signed-out');
  await expect(page.getByRole('heading', { level: 1, name: 'You are signed out' })).toBeVisible();
  const consoleSheet = page.locator('link[rel="stylesheet"][href*="admin"]');
  await expect(consoleSheet).toHaveCount(1);
  const href = (await consoleSheet.getAttribute('href'))!;
  expect(await (await page.request.get(href)).text()).toContain('.admin-header');
});
