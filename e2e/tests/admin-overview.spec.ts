import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { parseCsv } from '../../apps/server/test/support/csv.ts';
import { anotherPerson, openAccount, signInStaff, signUpDealer } from './admin-steps.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

/**
 * Issue 29's overview as billing staff see it, on the demo data's 14 months and a refund made
 * first (money going back this month): at 1280 and 320 px the keyboard alone reaches every chart's
 * "Show as table" and "Download CSV" in order, axe finds nothing with the tables shown, the page
 * never scrolls sideways, and each chart's CSV holds the numbers its table shows.
 */

const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 320, height: 720 },
];

/** What has focus: its button text (or name) and the title of the chart it is in. */
async function focused(page: Page): Promise<{ chart: string | null; name: string } | null> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return null;
    const chart = element.closest('section.overview-chart');
    return {
      chart: chart?.querySelector('h2')?.textContent?.trim() ?? null,
      name: (element.getAttribute('aria-label') ?? element.textContent ?? '').trim(),
    };
  });
}

/** A table cell's number: dollars ($1,234.50, -$5.00), a count (1,234), a rate (12.5%); — is none. */
function tableNumber(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '—') return null;
  const plain = trimmed.replace(/[$,%]/g, '');
  expect(plain, `a number in the table: ${text}`).toMatch(/^-?\d+(\.\d+)?$/);
  return Number(plain);
}

/** A CSV cell's number, as a spreadsheet reads it: an empty cell is none. */
function csvNumber(text: string): number | null {
  if (text === '') return null;
  expect(text, `a number in the CSV: ${text}`).toMatch(/^-?\d+(\.\d+)?$/);
  return Number(text);
}

const REFUND = '25.00';

/**
 * What the overview's period (its default, the last 12 months) showed as refunded before this
 * file's refund, in dollars. Earlier tests on this worker's server may have refunded too (the
 * console's billing test refunds a trial payment); the refund made here adds 25 to it.
 */
let refundedBefore = 0;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  // A dealer signs up; billing refunds part of the sign-up payment from the console.
  const email = `e2e-overview-refund-${Date.now()}@example.com`;
  const dealerContext = await browser.newContext(anotherPerson(29));
  await signUpDealer(await dealerContext.newPage(), email);
  await dealerContext.close();
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  const overview = staff.waitForResponse(
    (response) => /\/api\/admin\/overview\?/.test(response.url()) && response.ok(),
  );
  await signInStaff(staff, 'billing');
  const before = (await (await overview).json()) as {
    data: { months: { revenue: { refundsCents: number } }[] };
  };
  refundedBefore =
    before.data.months.reduce((sum, month) => sum + month.revenue.refundsCents, 0) / 100;
  await openAccount(staff, email);
  await staff
    .getByRole('region', { name: 'Payments', exact: true })
    .getByRole('button', { name: 'Refund' })
    .click();
  const dialog = staff.getByRole('dialog', { name: /Refund the payment of/ });
  await dialog.getByLabel(/^Amount to refund/).fill(REFUND);
  await dialog.getByLabel(/^Reason/).fill('Overview test: part of the month back');
  await dialog.getByRole('button', { name: 'Refund' }).click();
  await expect(
    staff.getByTestId('toast').filter({ hasText: 'The refund went through.' }),
  ).toBeVisible();
  await staffContext.close();
});

for (const viewport of VIEWPORTS) {
  test(`the overview at ${viewport.width} px: Tab reaches every chart's table and CSV, axe and reflow with the tables shown, the CSV equals the table`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(viewport);
    await signInStaff(page, 'billing');
    const charts = page.locator('main section.overview-chart');
    await expect(charts.first()).toBeVisible();
    const titles = (await charts.locator('h2').allTextContents()).map((title) => title.trim());
    // MRR, revenue, accounts, churn by cause, recovery, by group, by item (and reasons when any).
    expect(titles.length).toBeGreaterThanOrEqual(7);

    // The keyboard alone, from the top of the page: every chart's two actions, in the page's order.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const reached: string[] = [];
    const expected = titles.flatMap((title) => [
      `${title}: Show as table`,
      `${title}: Download CSV: ${title}`,
    ]);
    for (let presses = 0; presses < 800 && reached.length < expected.length; presses++) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      if (!now?.chart) continue;
      if (now.name === 'Show as table' || now.name.startsWith('Download CSV'))
        reached.push(`${now.chart}: ${now.name}`);
    }
    expect(reached).toEqual(expected);

    // Every table shown, opened from the keyboard: axe, and no sideways scroll of the page.
    for (const title of titles) {
      const chart = page.getByRole('region', { name: title, exact: true });
      const show = chart.getByRole('button', { name: 'Show as table' });
      await show.focus();
      await page.keyboard.press('Enter');
      await expect(chart.getByRole('button', { name: 'Hide table' })).toHaveAttribute(
        'aria-expanded',
        'true',
      );
      await expect(chart.getByRole('table')).toBeVisible();
    }
    await expectAccessible(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow, `the overview scrolls sideways at ${viewport.width} px`).toBeLessThanOrEqual(
      0,
    );

    // Each chart's CSV, downloaded from the keyboard, holds the numbers its table shows; the
    // revenue's refunds are 25 dollars more than before the refund.
    let refunded: number | null = null;
    for (const title of titles) {
      const chart = page.getByRole('region', { name: title, exact: true });
      const table = chart.getByRole('table');
      const headers = (await table.locator('thead th').allTextContents()).map((text) =>
        text.trim(),
      );
      const rows = await table
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent ?? '')),
        );
      expect(rows.length, `${title}: rows in the table`).toBeGreaterThan(0);

      await chart.getByRole('button', { name: /^Download CSV/ }).focus();
      const download = page.waitForEvent('download');
      await page.keyboard.press('Enter');
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/\.csv$/);
      const text = readFileSync((await file.path())!, 'utf8');
      expect(text.endsWith('\r\n'), `${title}: the CSV ends with CRLF`).toBe(true);
      const [header, ...records] = parseCsv(text);
      // The same columns (the CSV's carry their unit) and the same rows, number for number.
      expect(header!.length, `${title}: columns`).toBe(headers.length);
      expect(header![0]).toBe(headers[0]);
      headers.slice(1).forEach((name, index) => {
        expect(header![index + 1]!.startsWith(name), `${title}: column ${name}`).toBe(true);
      });
      expect(
        records.map((record) => [record[0], ...record.slice(1).map(csvNumber)]),
        `${title}: the CSV's rows`,
      ).toEqual(rows.map((row) => [row[0]!.trim(), ...row.slice(1).map(tableNumber)]));
      const refundColumn = header!.findIndex((name) => name.startsWith('Refunds'));
      if (title === 'Gross revenue per month' && refundColumn > 0)
        refunded = records.reduce(
          (sum, record) => sum + (csvNumber(record[refundColumn]!) ?? 0),
          0,
        );
    }
    expect(refunded, 'the revenue chart’s CSV has a Refunds column').not.toBeNull();
    expect(
      Math.round((refunded! - refundedBefore) * 100) / 100,
      'the refund in the revenue chart’s CSV',
    ).toBe(Number(REFUND));
  });
}
