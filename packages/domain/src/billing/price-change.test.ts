import { describe, expect, it } from 'vitest';
import { R3_PRICE_TABLE, nextPriceChangeAfter, priceOf, quote } from '../prices.ts';
import {
  ZSchedulePriceChangeRequestSchema,
  earliestPriceChangeDate,
  isBilledAtChange,
  monthlyTotalChange,
  priceChangeNoticeMail,
  priceChangeWithdrawalMail,
  priceChangeProblem,
  priceChangeRows,
} from './price-change.ts';
import { mailText } from '../mail/mail-content.ts';

const ZONE = 'America/New_York';
const NOW = new Date('2026-03-15T15:00:00Z');

describe('scheduling a price change (R11, 001 §9)', () => {
  it('needs 30 days: the 30th business day from today is the first allowed', () => {
    expect(earliestPriceChangeDate(NOW, ZONE)).toEqual({ year: 2026, month: 4, day: 14 });
    expect(priceChangeProblem('2026-04-13', NOW, ZONE)).toBe('tooSoon');
    expect(priceChangeProblem('2026-04-14', NOW, ZONE)).toBeNull();
    expect(priceChangeProblem('2026-02-30', NOW, ZONE)).toBe('dateInvalid');
    // Late evening in New York is still that day there, though UTC has moved on.
    expect(priceChangeProblem('2026-04-14', new Date('2026-03-16T03:30:00Z'), ZONE)).toBeNull();
  });

  it('takes effect at midnight in the business time zone (EST and EDT alike)', () => {
    const rows = priceChangeRows(
      { effectiveDate: '2026-07-01', prices: [{ item: 'KBB', cents: 7000 }] },
      ZONE,
    );
    expect(rows).toEqual([{ item: 'KBB', from: '2026-07-01T04:00:00.000Z', cents: 7000 }]);
    const winter = priceChangeRows(
      { effectiveDate: '2026-12-01', prices: [{ item: 'SIMULCAST', cents: 4000 }] },
      ZONE,
    );
    expect(winter[0]!.from).toBe('2026-12-01T05:00:00.000Z');
  });

  it('a new row changes prices from its instant only, and is the next change a screen waits for', () => {
    const rows = priceChangeRows(
      {
        effectiveDate: '2026-07-01',
        prices: [
          { item: 'KBB', cents: 7000 },
          { item: 'PLATFORM_FEE', cents: 500 },
        ],
      },
      ZONE,
    );
    const table = [...R3_PRICE_TABLE, ...rows];
    const before = new Date('2026-07-01T03:59:59.999Z');
    const at = new Date('2026-07-01T04:00:00Z');
    expect(priceOf('KBB', before, table)).toBe(6500);
    expect(priceOf('KBB', at, table)).toBe(7000);
    expect(quote(['KBB'], at, table).totalCents).toBe(7500);
    expect(quote(['KBB'], before, table)).toEqual(quote(['KBB'], before, R3_PRICE_TABLE));
    expect(nextPriceChangeAfter(NOW, table)).toEqual(at);
  });

  it('monthlyTotalChange: old and new totals, or null when the total stays', () => {
    const rows = priceChangeRows(
      { effectiveDate: '2026-07-01', prices: [{ item: 'KBB', cents: 7000 }] },
      ZONE,
    );
    expect(monthlyTotalChange(['KBB', 'NADA'], R3_PRICE_TABLE, rows, '2026-07-01')).toEqual({
      oldTotalCents: 13800,
      newTotalCents: 14300,
      effectiveDate: '2026-07-01',
    });
    expect(monthlyTotalChange(['NADA'], R3_PRICE_TABLE, rows, '2026-07-01')).toBeNull();
    expect(monthlyTotalChange([], R3_PRICE_TABLE, rows, '2026-07-01')).toBeNull();
    expect(monthlyTotalChange(['KBB'], R3_PRICE_TABLE, [], '2026-07-01')).toBeNull();
  });

  it.each([
    [{ effectiveDate: '2026-7-1', prices: [{ item: 'KBB', cents: 1 }] }],
    [{ effectiveDate: '2026-07-01', prices: [] }],
    [{ effectiveDate: '2026-07-01', prices: [{ item: 'KBB_S', cents: 1 }] }],
    [{ effectiveDate: '2026-07-01', prices: [{ item: 'KBB', cents: 1.5 }] }],
    [{ effectiveDate: '2026-07-01', prices: [{ item: 'KBB', cents: -1 }] }],
    [
      {
        effectiveDate: '2026-07-01',
        prices: [
          { item: 'KBB', cents: 1 },
          { item: 'KBB', cents: 2 },
        ],
      },
    ],
    [{ effectiveDate: '2026-07-01', prices: [{ item: 'KBB', cents: 1 }], extra: true }],
  ])('refuses %j', (body) => {
    expect(ZSchedulePriceChangeRequestSchema.safeParse(body).success).toBe(false);
  });
});

describe('who is told of a change, and of its withdrawal (R11 amended, decision 032)', () => {
  const standing = (status: string, periodEnd = '2026-05-15', complimentary = false) => ({
    status,
    periodEnd,
    complimentary,
  });

  it('only accounts that will be billed at the new price', () => {
    expect(isBilledAtChange(standing('active'), '2026-05-01')).toBe(true);
    expect(isBilledAtChange(standing('validating payment'), '2026-05-01')).toBe(true);
    expect(isBilledAtChange(standing('inactive'), '2026-05-01')).toBe(false);
    expect(isBilledAtChange(standing('active', '2026-05-15', true), '2026-05-01')).toBe(false);
    // Pending cancel ends at its period's end (R4): on or before the date, never billed anew.
    expect(isBilledAtChange(standing('pending cancel', '2026-04-20'), '2026-05-01')).toBe(false);
    expect(isBilledAtChange(standing('pending cancel', '2026-05-01'), '2026-05-01')).toBe(false);
    expect(isBilledAtChange(standing('pending cancel', '2026-05-02'), '2026-05-01')).toBe(true);
  });

  it('the notice and the withdrawal name the old and new total and the date', () => {
    const context = {
      company: { name: 'DealerPass', supportPhone: '1-800-555-0199' },
      firstName: 'Ada',
      change: { oldTotalCents: 6800, newTotalCents: 7300, effectiveDate: '2026-12-27' },
    };
    const notice = priceChangeNoticeMail(context);
    expect(notice.subject).toBe('DealerPass: your monthly price changes on Dec 27, 2026');
    expect(mailText(notice)).toContain('from $68.00 to $73.00');
    const withdrawal = priceChangeWithdrawalMail(context);
    expect(withdrawal.subject).toBe('DealerPass: the price change of Dec 27, 2026 is withdrawn');
    expect(mailText(withdrawal)).toContain('from $68.00 to $73.00. That change is withdrawn');
    expect(mailText(withdrawal)).toContain('Call 1-800-555-0199');
  });

  it('tells an account billed annually by check what the change means for its year (decision 052)', () => {
    const base = {
      company: { name: 'DealerPass', supportPhone: '1-800-555-0199' },
      firstName: 'Ada',
      change: { oldTotalCents: 6800, newTotalCents: 7300, effectiveDate: '2026-12-27' },
    };
    const repriced = mailText(
      priceChangeNoticeMail({
        ...base,
        annual: {
          kind: 'invoiceRepriced',
          invoice: {
            number: 'DP-2026-000007',
            totalCents: 73440,
            periodStart: '2027-01-15',
            dueOn: '2027-01-15',
          },
          newNumber: 'DP-2026-000008',
          newTotalCents: 78840,
        },
      }),
    );
    expect(repriced).toContain('invoice DP-2026-000007 ($734.40) is void');
    expect(repriced).toContain('invoice DP-2026-000008 replaces it: $788.40 for the year');
    expect(repriced).toContain('by Jan 15, 2027');
    expect(repriced).toContain('at the new monthly total of $73.00 (now $68.00)');

    const paid = mailText(
      priceChangeNoticeMail({
        ...base,
        annual: {
          kind: 'yearUnchanged',
          paidThrough: '2027-06-14',
          invoice: null,
          annualFrom: '2027-06-15',
          oldAnnualCents: 73440,
          newAnnualCents: 78840,
        },
      }),
    );
    expect(paid).toContain('paid through Jun 14, 2027: nothing is billed at the new prices');
    expect(paid).toContain('from the year starting Jun 15, 2027: $788.40 a year');
    expect(paid).toContain('(now $734.40)');

    const invoiced = mailText(
      priceChangeNoticeMail({
        ...base,
        annual: {
          kind: 'yearUnchanged',
          paidThrough: null,
          invoice: { number: 'DP-2026-000009', totalCents: 73440, periodStart: '2026-12-20' },
          annualFrom: '2027-12-20',
          oldAnnualCents: 73440,
          newAnnualCents: 78840,
        },
      }),
    );
    expect(invoiced).toContain(
      'Your invoice DP-2026-000009 for your year billed annually by check',
    );
    expect(invoiced).toContain('the new prices do not change it');

    const withdrawn = mailText(
      priceChangeWithdrawalMail({
        ...base,
        replacement: {
          oldNumber: 'DP-2026-000008',
          oldTotalCents: 78840,
          newNumber: 'DP-2026-000010',
          newTotalCents: 73440,
          periodStart: '2027-01-15',
        },
      }),
    );
    expect(withdrawn).toContain('invoice DP-2026-000008 ($788.40) is void');
    expect(withdrawn).toContain('invoice DP-2026-000010 replaces it: $734.40');
  });
});
