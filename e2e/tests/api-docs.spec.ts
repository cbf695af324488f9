import { expect, test } from './fixtures.ts';

/**
 * The API's reference UI (docs/decisions/023): Swagger UI at /api/docs renders the generated
 * OpenAPI description under the docs page's own CSP (the fixture fails on any violation), and
 * "Try it out" reaches the API from it.
 */
test('the reference UI shows the API description and calls the API', async ({ page }) => {
  await page.goto('/api/docs');
  // Swagger UI's first render on two busy cores took just over 10 s once.
  await expect(page.getByRole('heading', { name: /DealerPass API/ })).toBeVisible({
    timeout: 30_000,
  });
  const health = page.locator('#operations-Platform-getHealth');
  await expect(health).toBeVisible();
  await expect(
    page.locator('.opblock-summary-path', { hasText: '/api/users/current' }).first(),
  ).toBeVisible();
  await health.locator('.opblock-summary-control').click();
  await health.getByRole('button', { name: 'Try it out' }).click();
  await health.getByRole('button', { name: 'Execute' }).click();
  await expect(health.locator('.live-responses-table tr.response .response-col_status')).toHaveText(
    '200',
  );
});
