import { readFileSync } from 'node:fs';
import { WEB_DIST, entryKey, readManifest, staticClosure } from '../../bench/vite-manifest.ts';
import { expect, test } from './fixtures.ts';

/**
 * docs/decisions/027: the pages whose first paint is measured load no zod before it (their forms
 * import their schema at first use), and, in a browser, fetch it once the form is first used.
 * zod's core is recognised by its schema class names, which minification keeps.
 */
const ZOD_MARK = '$ZodType';
const FIRST_PAINT_PAGES = [
  'src/features/signup/routes/signup-page.tsx',
  'src/features/auth/routes/sign-in-page.tsx',
  'src/features/contact/routes/contact-page.tsx',
  'src/app/layouts/account-layout.tsx',
  'src/features/account/components/account-route-guard.tsx',
  'src/features/account/routes/billing-page.tsx',
];

test('no zod in the first load of the sign-up, sign-in, contact and billing pages', () => {
  const manifest = readManifest();
  const entry = entryKey(manifest);
  // The check itself works: the schemas' chunks do carry zod.
  const schema = Object.keys(manifest).find((key) => key.endsWith('schemas/contact.ts'));
  expect(schema).toBeDefined();
  const withZod = (key: string) =>
    readFileSync(`${WEB_DIST}${manifest[key]!.file}`, 'utf8').includes(ZOD_MARK);
  expect([...staticClosure(manifest, [schema!])].some(withZod)).toBe(true);
  for (const page of FIRST_PAINT_PAGES) {
    const loaded = [...staticClosure(manifest, [entry, page])];
    expect(loaded.filter(withZod), page).toEqual([]);
  }
});

test('the sign-up form fetches its schema when first used, and still checks the page', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script') {
      scripts.push((await response.text().catch(() => '')).includes(ZOD_MARK) ? 'zod' : 'other');
    }
  });
  await page.goto('/signup');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Contact details');
  expect(scripts).not.toContain('zod');
  await page.getByLabel(/^First name/).click();
  await page.getByLabel(/^First name/).blur();
  await expect(page.getByText('First name is required.').first()).toBeVisible();
  expect(scripts).toContain('zod');
});
