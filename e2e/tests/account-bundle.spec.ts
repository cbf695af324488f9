import { entryKey, readManifest, staticClosure } from '../../bench/vite-manifest.ts';
import { expect, test } from './fixtures.ts';

/**
 * Issue 7: the account pages are loaded on demand. None of their code (the account layout, the
 * feature's modules, the route guard) is in the first load of a public page: neither in the
 * build's static import graph from the entry, nor among the scripts a browser fetches there.
 * Chunks are found in Vite's manifest with bench/vite-manifest.ts, as bench/bundle-size.ts does.
 */

const manifest = readManifest();

const isAccountCode = (key: string) =>
  key.startsWith('src/features/account/') || key === 'src/app/layouts/account-layout.tsx';

const PUBLIC_PAGES = [
  'src/features/marketing/routes/home-page.tsx',
  'src/features/contact/routes/contact-page.tsx',
  'src/features/legal/routes/terms-page.tsx',
  'src/features/auth/routes/auth-login-page.tsx',
  'src/features/snapshot/routes/snapshot-expired-page.tsx',
];

test('no account code is in the first load of the public pages', async ({ page }) => {
  const entry = entryKey(manifest);
  const accountKeys = Object.keys(manifest).filter(isAccountCode);
  // The account pages exist as chunks of their own (else this test would prove nothing).
  expect(accountKeys).toEqual(
    expect.arrayContaining([
      'src/app/layouts/account-layout.tsx',
      'src/features/account/routes/profile-page.tsx',
      'src/features/account/routes/billing-page.tsx',
      'src/features/account/routes/subscriptions-page.tsx',
      'src/features/account/routes/cancel-subscription-page.tsx',
    ]),
  );
  for (const publicPage of PUBLIC_PAGES) {
    const loaded = [...staticClosure(manifest, [entry, publicPage])];
    expect(loaded.filter(isAccountCode), publicPage).toEqual([]);
  }

  // In a browser: the scripts a visitor fetches on public pages are none of the account chunks.
  const accountFiles = new Set(accountKeys.map((key) => `/${manifest[key]!.file}`));
  const fetched: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') fetched.push(new URL(request.url()).pathname);
  });
  for (const path of ['/home', '/contact', '/terms', '/authlogin']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  expect(fetched.length).toBeGreaterThan(0);
  expect(fetched.filter((file) => accountFiles.has(file))).toEqual([]);
});
