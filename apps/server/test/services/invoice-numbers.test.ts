import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceCounters, invoices } from '../../src/db/schema.ts';
import { takeInvoiceNumber } from '../../src/services/annual-billing/issue-invoice.ts';
import { consolePost, staffCookies } from '../factories/admin-fixtures.ts';
import { annualDealer } from '../factories/annual-fixtures.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';

const NOW = new Date('2026-03-10T15:00:00Z');
const PARALLEL = 10;

const sequenceOf = (number: string) => Number(number.slice(-6));

/**
 * Invoice numbers (R14): `{prefix}-{year}-{6 digits}`, without gaps and never twice, whatever
 * runs at once (on PostgreSQL, truly in parallel over the pool); a rolled-back issue leaves no
 * gap; an issued invoice never changes what it says (the database refuses).
 */
describe('invoice numbers', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let billing: string;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => NOW });
    browser = await t.browser();
    billing = (await staffCookies(t)).billing.cookie;
  }, 60_000);
  afterAll(() => t.close());

  const eligible = () => annualDealer(t, { now: NOW, today: '2026-03-10', previous: '2026-02-10' });
  const numbers = async () =>
    (await t.app.db.select({ number: invoices.number }).from(invoices))
      .map((row) => row.number)
      .sort();

  it('gives parallel requests unique, consecutive numbers', async () => {
    const dealers = await Promise.all(Array.from({ length: PARALLEL }, eligible));
    const before = await numbers();
    const answers = await Promise.all(
      dealers.map(({ user }) =>
        consolePost(t, browser, billing, `/api/admin/accounts/${user.id}/annual-billing`, {
          requestKey: crypto.randomUUID(),
          reason: 'Parallel set-up',
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 201));
    const issued = answers.map((answer) => answer.json().data.invoice.number as string);
    expect(new Set(issued).size).toBe(PARALLEL);
    const all = await numbers();
    expect(all).toHaveLength(before.length + PARALLEL);
    const sequences = all.map(sequenceOf);
    expect(sequences).toEqual(sequences.map((_, i) => i + 1));
    for (const number of issued) expect(number).toMatch(/^DP-2026-\d{6}$/);
  });

  it('leaves no gap when the issuing transaction rolls back', async () => {
    const before = await numbers();
    const failed = new Error('the issue failed after taking its number');
    await expect(
      t.app.db.transaction(async (tx) => {
        await takeInvoiceNumber(tx, 'DP', 2026);
        throw failed;
      }),
    ).rejects.toBe(failed);
    const { user } = await eligible();
    const answer = await consolePost(
      t,
      browser,
      billing,
      `/api/admin/accounts/${user.id}/annual-billing`,
      {
        requestKey: crypto.randomUUID(),
        reason: 'After a rolled-back issue',
      },
    );
    expect(answer.statusCode).toBe(201);
    expect(sequenceOf(answer.json().data.invoice.number)).toBe(before.length + 1);
    const [counter] = await t.app.db
      .select()
      .from(invoiceCounters)
      .where(eq(invoiceCounters.prefix, 'DP'));
    expect(counter?.lastNumber).toBe(before.length + 1);
  });

  it('counts each year from 1', async () => {
    const first = await t.app.db.transaction((tx) => takeInvoiceNumber(tx, 'DP', 2027));
    const second = await t.app.db.transaction((tx) => takeInvoiceNumber(tx, 'DP', 2027));
    expect([first, second]).toEqual(['DP-2027-000001', 'DP-2027-000002']);
  });

  it('refuses to change what an issued invoice says, or to delete it', async () => {
    const [row] = await t.app.db.select().from(invoices).limit(1);
    await expect(
      t.app.db.update(invoices).set({ totalCents: 1 }).where(eq(invoices.id, row!.id)),
    ).rejects.toThrow();
    await expect(
      t.app.db.update(invoices).set({ number: 'DP-2026-999999' }).where(eq(invoices.id, row!.id)),
    ).rejects.toThrow();
    await expect(t.app.db.delete(invoices).where(eq(invoices.id, row!.id))).rejects.toThrow();
    // Its status may move on, once: open → void; never back.
    await t.app.db.update(invoices).set({ status: 'void' }).where(eq(invoices.id, row!.id));
    await expect(
      t.app.db.update(invoices).set({ status: 'open' }).where(eq(invoices.id, row!.id)),
    ).rejects.toThrow();
  });
});
