import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINANCE_EXPORT_COLUMNS } from '@dealerpass/domain/admin/finance-export';
import { CHECK_TRANSACTION_PREFIX } from '@dealerpass/domain/billing/receipt-text';
import { billingPeriods, payments, refunds, staffAudit } from '../../src/db/schema.ts';
import { plainDealer, staffCookies } from '../factories/admin-fixtures.ts';
import { parseCsv } from '../support/csv.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';

const URL = '/api/admin/finance/movements.csv';
const QUOTE = {
  lines: [
    { code: 'NADA', name: 'NADA Guides', cents: 7000, listCents: 7000, free: false },
    { code: 'MMR', name: 'Manheim Market Report', cents: 6500, listCents: 6500, free: false },
  ],
  subtotalCents: 13500,
  platformFeeCents: 300,
  totalCents: 13800,
};

/**
 * The finance export (issue 29): every payment, refund and chargeback of a month or a range of
 * business dates (R4's time zone) as CSV, streamed, RFC 4180, formula-safe, for billing and admin,
 * audited.
 */
describe('operator console: the finance export', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let staff: Awaited<ReturnType<typeof staffCookies>>;
  const ids = {} as Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => new Date('2026-04-10T15:00:00Z') });
    browser = await t.browser();
    staff = await staffCookies(t);

    // A dealership whose name a spreadsheet would run as a formula, with a comma and quotes.
    const risky = await plainDealer(t, {
      dealership: '=HYPERLINK("http://x.example","Smith, Bob")',
    });
    const plain = await plainDealer(t, { dealership: 'Café Motors' });
    ids.risky = risky.id;
    ids.plain = plain.id;
    const pay = async (
      userId: string,
      activationDate: string,
      createdAt: string,
      fields: Partial<typeof payments.$inferInsert> = {},
    ) => {
      const [period] = await t.app.db
        .insert(billingPeriods)
        .values({
          userId,
          kind: 'renewal',
          periodStart: activationDate,
          periodEnd: activationDate,
          amountCents: fields.amountCents ?? 13800,
          quote: QUOTE,
          status: 'paid',
          idempotencyKey: `finance-${randomUUID()}`,
        })
        .returning();
      const [payment] = await t.app.db
        .insert(payments)
        .values({
          userId,
          billingPeriodId: period!.id,
          amountCents: 13800,
          gatewayTransactionId: `txn-${activationDate}-${randomUUID().slice(0, 6)}`,
          cardBrand: 'visa',
          cardLast4: '1111',
          activationDate,
          receiptPdf: Buffer.from('%PDF-1.7'),
          createdAt: new Date(createdAt),
          ...fields,
        })
        .returning();
      return payment!;
    };
    const refund = async (paymentId: string, userId: string, cents: number, settledAt: string) => {
      const [row] = await t.app.db
        .insert(refunds)
        .values({
          paymentId,
          userId,
          amountCents: cents,
          status: 'succeeded',
          requestKey: randomUUID(),
          gatewayRefundId: `rf-${settledAt}`,
          reason: 'Charged twice',
          staffId: randomUUID(),
          createdAt: new Date(settledAt),
          settledAt: new Date(settledAt),
        })
        .returning();
      return row!;
    };

    const march = await pay(risky.id, '2026-03-01', '2026-03-01T15:00:00Z');
    ids.march = march.id;
    // February's last day and April's first: outside March.
    ids.february = (await pay(plain.id, '2026-02-28', '2026-02-28T15:00:00Z')).id;
    ids.april = (await pay(plain.id, '2026-04-01', '2026-04-01T15:00:00Z')).id;
    // 23:30 in New York on March 31 (03:30 UTC on April 1): still March's business date.
    ids.lateRefund = (await refund(march.id, risky.id, 2500, '2026-04-01T03:30:00Z')).id;
    // 00:30 in New York on April 1: April's.
    ids.aprilRefund = (await refund(march.id, risky.id, 1000, '2026-04-01T04:30:00Z')).id;
    // A payment of 100.00 refunded 30.00, then charged back: the chargeback takes back 70.00.
    const disputed = await pay(plain.id, '2026-03-05', '2026-03-05T15:00:00Z', {
      amountCents: 10000,
      chargedBackAt: new Date('2026-03-20T16:00:00Z'),
    });
    ids.disputed = disputed.id;
    await refund(disputed.id, plain.id, 3000, '2026-03-10T16:00:00Z');
    // A year paid by check (R14): the method says so.
    const check = await pay(plain.id, '2026-03-25', '2026-03-25T15:00:00Z', {
      gatewayTransactionId: `${CHECK_TRANSACTION_PREFIX}1234`,
      cardBrand: 'Check',
      cardLast4: '1234',
    });
    ids.check = check.id;
    // Its period's quote changed after the payment was written (a reactivation settles its period
    // with the quote it charged): the export shows the quote as it stands (decision 062).
    await t.app.db
      .update(billingPeriods)
      .set({
        quote: {
          lines: [{ code: 'NADA', name: 'NADA Guides', cents: 84000, listCents: 84000 }],
          platformFeeCents: 3600,
        },
      })
      .where(eq(billingPeriods.id, check.billingPeriodId));
    // R4's trial refund of a sign-up payment.
    ids.trial = (
      await pay(plain.id, '2026-03-12', '2026-03-12T15:00:00Z', {
        status: 'refunded',
        refundedAt: new Date('2026-03-15T14:00:00Z'),
        refundClaimedAt: new Date('2026-03-15T14:00:00Z'),
        refundClaimedCents: 13800,
      })
    ).id;
  }, 60_000);
  afterAll(() => t.close());

  const get = (cookie: string | null, query: string) =>
    t.app.inject({
      method: 'GET',
      url: `${URL}?${query}`,
      headers: { cookie: [browser.cookie, cookie].filter(Boolean).join('; ') },
    });

  it('lists every money movement of the month, one row each, by business date (R4’s time zone)', async () => {
    const response = await get(staff.billing.cookie, 'month=2026-03');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="dealerpass-money-2026-03-01-to-2026-03-31.csv"',
    );
    // RFC 4180: CRLF after every record, the header first.
    expect(response.body.endsWith('\r\n')).toBe(true);
    expect(response.body.replace(/\r\n/g, '')).not.toMatch(/\n/);
    const [header, ...rows] = parseCsv(response.body);
    expect(header).toEqual([...FINANCE_EXPORT_COLUMNS]);
    const column = (name: (typeof FINANCE_EXPORT_COLUMNS)[number]) =>
      FINANCE_EXPORT_COLUMNS.indexOf(name);
    const summary = rows.map((row) => [
      row[column('business_date')],
      row[column('kind')],
      row[column('direction')],
      row[column('amount')],
      row[column('payment_id')],
    ]);
    expect(summary).toEqual([
      ['2026-03-01', 'payment', 'in', '138.00', ids.march],
      ['2026-03-05', 'payment', 'in', '100.00', ids.disputed],
      ['2026-03-10', 'refund', 'out', '30.00', ids.disputed],
      ['2026-03-12', 'payment', 'in', '138.00', ids.trial],
      ['2026-03-15', 'refund', 'out', '138.00', ids.trial],
      ['2026-03-20', 'chargeback', 'out', '70.00', ids.disputed],
      ['2026-03-25', 'payment', 'in', '138.00', ids.check],
      ['2026-03-31', 'refund', 'out', '25.00', ids.march],
    ]);
    expect(rows.map((row) => row[column('method')])).toEqual([
      'card',
      'card',
      'card',
      'card',
      'card',
      'card',
      'check',
      'card',
    ]);
    // Each row's items are its payment's quote: the same cell for the rows of one quote.
    const standard = 'NADA Guides 70.00; Manheim Market Report 65.00; Platform fee 3.00';
    expect(rows.map((row) => row[column('items')])).toEqual([
      ...Array<string>(6).fill(standard),
      'NADA Guides 840.00; Platform fee 36.00',
      standard,
    ]);
    const first = rows[0]!;
    expect(first[column('account_id')]).toBe(ids.risky);
    expect(first[column('method')]).toBe('card');
    expect(first[column('gateway_transaction_id')]).toMatch(/^txn-2026-03-01-/);
    expect(rows[7]![column('gateway_transaction_id')]).toBe('rf-2026-04-01T03:30:00Z');
    expect(rows[7]![column('recorded_at')]).toBe('2026-04-01T03:30:00.000Z');
    // The trial refund's gateway id is not kept; its payment names what went back.
    expect(rows[4]![column('gateway_transaction_id')]).toBe('');
    expect(rows[4]![column('movement_id')]).toBe(`trial-refund:${ids.trial}`);
  });

  it('quotes per RFC 4180 and never lets a cell run as a formula (lib/csv.ts)', async () => {
    const response = await get(staff.admin.cookie, 'month=2026-03');
    // The dealership: quoted (a comma and quotes in it), its quotes doubled, an apostrophe first.
    expect(response.body).toContain(`,"'=HYPERLINK(""http://x.example"",""Smith, Bob"")",`);
    const rows = parseCsv(response.body).slice(1);
    const dealership = FINANCE_EXPORT_COLUMNS.indexOf('dealership');
    expect(rows[0]![dealership]).toBe(`'=HYPERLINK("http://x.example","Smith, Bob")`);
    // Amounts are unsigned (the direction says which way), so no amount is written as text.
    const amount = FINANCE_EXPORT_COLUMNS.indexOf('amount');
    expect(rows.every((row) => /^\d+\.\d{2}$/.test(row[amount]!))).toBe(true);
    // UTF-8: the é is two bytes.
    expect(response.rawPayload.includes(Buffer.from('Café Motors', 'utf8'))).toBe(true);
  });

  it('takes a range of dates, both days included, at the business date’s edge', async () => {
    const response = await get(staff.billing.cookie, 'from=2026-04-01&to=2026-04-01');
    expect(response.statusCode, response.body).toBe(200);
    const rows = parseCsv(response.body).slice(1);
    const kind = FINANCE_EXPORT_COLUMNS.indexOf('kind');
    const movement = FINANCE_EXPORT_COLUMNS.indexOf('movement_id');
    expect(rows.map((row) => [row[kind], row[movement]])).toEqual([
      ['refund', ids.aprilRefund],
      ['payment', ids.april],
    ]);
    const february = await get(staff.billing.cookie, 'from=2026-02-01&to=2026-02-28');
    expect(parseCsv(february.body).slice(1)).toHaveLength(1);
    // An empty range is a header row alone.
    const empty = await get(staff.billing.cookie, 'month=2025-01');
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toBe(`${FINANCE_EXPORT_COLUMNS.join(',')}\r\n`);
  });

  it('is for billing and admin only, and refuses a range it cannot read', async () => {
    expect((await get(staff.support.cookie, 'month=2026-03')).statusCode).toBe(403);
    expect((await get(null, 'month=2026-03')).statusCode).toBe(401);
    for (const query of [
      '',
      'month=2026-13',
      'month=2026-3',
      'from=2026-03-01',
      'month=2026-03&from=2026-03-01&to=2026-03-02',
      'from=2026-03-10&to=2026-03-09',
      'from=2026-02-30&to=2026-03-01',
      'from=2025-01-01&to=2026-01-02',
    ]) {
      expect((await get(staff.billing.cookie, query)).statusCode, query).toBe(400);
    }
    expect((await get(staff.billing.cookie, 'from=2025-01-01&to=2026-01-01')).statusCode).toBe(200);
    expect(t.conformanceFailures).toEqual([]);
  });

  it('audits every export: who, which range', async () => {
    const before = await t.app.db
      .select()
      .from(staffAudit)
      .where(eq(staffAudit.action, 'exportFinance'));
    const response = await get(staff.admin.cookie, 'from=2026-03-01&to=2026-03-15');
    expect(response.statusCode).toBe(200);
    const after = await t.app.db
      .select()
      .from(staffAudit)
      .where(eq(staffAudit.action, 'exportFinance'));
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)).toMatchObject({
      staffEmail: staff.admin.email,
      userId: null,
      after: { from: '2026-03-01', to: '2026-03-15' },
    });
    // A refused export is not one.
    await get(staff.support.cookie, 'month=2026-03');
    await get(staff.billing.cookie, 'month=2026-13');
    expect(
      await t.app.db.select().from(staffAudit).where(eq(staffAudit.action, 'exportFinance')),
    ).toHaveLength(after.length);
  });
});
