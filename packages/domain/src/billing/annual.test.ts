import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ACCOUNT_STATUS } from '../account/status.ts';
import { R3_PRICE_TABLE, quote, type TPriceTable } from '../prices.ts';
import {
  ANNUAL_INELIGIBLE_MESSAGES,
  annualIneligibleReason,
  annualPeriodFor,
  annualQuote,
  discountedCents,
  firstAnnualStartOnOrAfter,
  formatInvoiceNumber,
  isInvoiceOverdue,
  nextAnnualPeriod,
  prorateAnnualAddition,
  renewalInvoiceDate,
  selectionAtStart,
} from './annual.ts';

const ZONE = 'America/New_York';

describe('annualIneligibleReason (R14: who)', () => {
  const eligible = {
    status: ACCOUNT_STATUS.active as string,
    complimentary: false,
    onAnnualPeriod: false,
    hasOpenInvoice: false,
    monthlyTotalCents: 6800,
  };
  it('accepts an active monthly account', () => {
    expect(annualIneligibleReason(eligible)).toBeNull();
  });
  it.each([
    [{ complimentary: true }, ANNUAL_INELIGIBLE_MESSAGES.complimentary],
    [{ status: ACCOUNT_STATUS.validatingPayment }, ANNUAL_INELIGIBLE_MESSAGES.validatingPayment],
    [{ status: ACCOUNT_STATUS.pendingCancel }, ANNUAL_INELIGIBLE_MESSAGES.pendingCancel],
    [{ status: ACCOUNT_STATUS.inactive }, ANNUAL_INELIGIBLE_MESSAGES.notActive],
    [{ status: ACCOUNT_STATUS.blocked }, ANNUAL_INELIGIBLE_MESSAGES.notActive],
    [{ status: ACCOUNT_STATUS.pendingReactivation }, ANNUAL_INELIGIBLE_MESSAGES.notActive],
    [{ onAnnualPeriod: true }, ANNUAL_INELIGIBLE_MESSAGES.annual],
    [{ hasOpenInvoice: true }, ANNUAL_INELIGIBLE_MESSAGES.openInvoice],
    [{ monthlyTotalCents: 0 }, ANNUAL_INELIGIBLE_MESSAGES.noSubscription],
  ])('refuses %o', (change, message) => {
    expect(annualIneligibleReason({ ...eligible, ...change })).toBe(message);
  });
});

describe('annualPeriodFor (R14: the first bill date at least 30 days on, 12 months)', () => {
  it.each([
    // anchor, requested on, start, paid through, next start
    ['2026-01-10', '2026-03-05', '2026-04-10', '2027-04-09', '2027-04-10'],
    ['2026-01-10', '2026-03-11', '2026-04-10', '2027-04-09', '2027-04-10'],
    ['2026-01-10', '2026-03-12', '2026-05-10', '2027-05-09', '2027-05-10'],
    // Exactly 30 days: that bill date counts.
    ['2026-01-10', '2026-03-11', '2026-04-10', '2027-04-09', '2027-04-10'],
    // Day 31 clamps as R4 does, and the next period comes back to the 31st.
    ['2025-10-31', '2026-01-15', '2026-02-28', '2027-02-27', '2027-02-28'],
    ['2025-10-31', '2026-01-31', '2026-03-31', '2027-03-30', '2027-03-31'],
    // Leap day anchor.
    ['2024-02-29', '2027-12-31', '2028-02-29', '2029-02-27', '2029-02-28'],
  ])('anchor %s, asked %s → %s to %s', (anchor, asked, start, end, nextStart) => {
    expect(annualPeriodFor(anchor, asked)).toEqual({ start, end, nextStart });
  });

  it('is always a bill date at least 30 and less than 62 days on (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2024-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 400 }),
        (anchorAt, later) => {
          const anchor = anchorAt.toISOString().slice(0, 10);
          const asked = new Date(anchorAt.getTime() + later * 86_400_000)
            .toISOString()
            .slice(0, 10);
          const period = annualPeriodFor(anchor, asked);
          const days = (Date.parse(period.start) - Date.parse(asked)) / 86_400_000;
          expect(days).toBeGreaterThanOrEqual(30);
          expect(days).toBeLessThan(62);
          // The next period is the same cycle's bill date twelve months on.
          expect(nextAnnualPeriod(anchor, period.nextStart).start).toBe(period.nextStart);
        },
      ),
    );
  });

  it('refuses a next start that is not a bill date', () => {
    expect(() => nextAnnualPeriod('2026-01-10', '2027-01-11')).toThrow(RangeError);
  });
});

describe('renewalInvoiceDate (R14: 45 days before the period ends)', () => {
  it('counts back from the next start', () => {
    expect(renewalInvoiceDate('2027-04-10')).toBe('2027-02-24');
  });
});

describe('annualQuote (R14: 12 × monthly at the period start prices, × 90 %, half up)', () => {
  it('prices NADA + MMR + the fee, extras free', () => {
    const priced = annualQuote(['NADA', 'MMR', 'CF'], '2026-04-10', ZONE, R3_PRICE_TABLE);
    // 70 + 65 + 3 = 138 a month; 1656 a year; 1490.40 after 10 %.
    expect(priced.monthlyTotalCents).toBe(13_800);
    expect(priced.yearTotalCents).toBe(165_600);
    expect(priced.totalCents).toBe(149_040);
    expect(priced.discountCents).toBe(16_560);
    expect(priced.lines).toEqual([
      { label: 'J.D. Power (NADA) × 12', amountCents: 84_000 },
      { label: 'Manheim Market Report × 12', amountCents: 78_000 },
      { label: 'CARFAX Integration (included) × 12', amountCents: 0 },
      { label: 'Platform fee × 12', amountCents: 3_600 },
    ]);
    const sum = priced.lines.reduce((total, line) => total + line.amountCents, 0);
    expect(sum - priced.discountCents).toBe(priced.totalCents);
  });

  it('uses a price scheduled (R11) before the period start, not one after', () => {
    const table: TPriceTable = [
      ...R3_PRICE_TABLE,
      { item: 'NADA', from: '2026-04-10T04:00:00Z', cents: 7500 },
    ];
    expect(annualQuote(['NADA'], '2026-04-10', ZONE, table).monthlyTotalCents).toBe(7800);
    expect(annualQuote(['NADA'], '2026-03-10', ZONE, table).monthlyTotalCents).toBe(7300);
  });

  it('rounds the discount half up to the cent', () => {
    expect(discountedCents(5)).toBe(5); // 4.5 → 5
    expect(discountedCents(15)).toBe(14); // 13.5 → 14
    expect(discountedCents(11)).toBe(10); // 9.9 → 10
    expect(discountedCents(165_600)).toBe(149_040);
  });

  it('always equals 12 × the monthly quote less 10 % half up (property)', () => {
    const codes = ['APG', 'NADA', 'KBB', 'MMR', 'RETAIL', 'CF', 'AC', 'NADA_S'] as const;
    fc.assert(
      fc.property(fc.subarray([...codes], { minLength: 1 }), (chosen) => {
        const priced = annualQuote(chosen, '2026-06-01', ZONE, R3_PRICE_TABLE);
        const monthly = quote(chosen, new Date('2026-06-01T04:00:00Z'), R3_PRICE_TABLE).totalCents;
        expect(priced.totalCents).toBe(Math.round((monthly * 12 * 9) / 10 + 1e-9));
      }),
    );
  });
});

describe('prorateAnnualAddition (R14: R10 on discounted annual amounts)', () => {
  it('charges the discounted annual difference for the days left', () => {
    const result = prorateAnnualAddition({
      currentCodes: ['NADA'],
      newCodes: ['NADA', 'KBB'],
      at: new Date('2026-10-10T15:00:00Z'),
      timeZone: ZONE,
      periodStart: '2026-04-10',
      nextStart: '2027-04-10',
      table: R3_PRICE_TABLE,
    });
    // NADA alone 73/month → 788.40 a year; NADA+KBB (2 paid) 138 → 1490.40. Difference 702.00
    // over 182 of 365 days → 350.0383… → 350.04.
    expect(result.currentAnnualCents).toBe(78_840);
    expect(result.newAnnualCents).toBe(149_040);
    expect(result.daysInPeriod).toBe(365);
    expect(result.daysLeft).toBe(182);
    expect(result.chargeCents).toBe(35_004);
  });

  it('charges nothing when the total does not grow', () => {
    const result = prorateAnnualAddition({
      currentCodes: ['NADA', 'KBB'],
      newCodes: ['NADA', 'KBB', 'CF'],
      at: new Date('2026-10-10T15:00:00Z'),
      timeZone: ZONE,
      periodStart: '2026-04-10',
      nextStart: '2027-04-10',
      table: R3_PRICE_TABLE,
    });
    expect(result.chargeCents).toBe(0);
  });
});

describe('formatInvoiceNumber', () => {
  it('pads the year and the sequence', () => {
    expect(formatInvoiceNumber('DP', 2026, 17)).toBe('DP-2026-000017');
    expect(formatInvoiceNumber('DP', 2026, 999_999)).toBe('DP-2026-999999');
  });
  it('refuses a sequence that would not fit six digits', () => {
    expect(() => formatInvoiceNumber('DP', 2026, 0)).toThrow(RangeError);
    expect(() => formatInvoiceNumber('DP', 2026, 1_000_000)).toThrow(RangeError);
  });
});

describe('isInvoiceOverdue', () => {
  it('is overdue from its due date', () => {
    expect(isInvoiceOverdue('2026-04-10', '2026-04-09')).toBe(false);
    expect(isInvoiceOverdue('2026-04-10', '2026-04-10')).toBe(true);
  });
});

describe('selectionAtStart (R14 with R10: the selection in force at the year’s start)', () => {
  const held = {
    codes: ['NADA', 'MMR', 'CF', 'AC'],
    autoExtras: ['CF', 'AC'],
    pendingRemovals: ['MMR'],
  };
  it('leaves out a removal pending until the start, with the extras it made free', () => {
    expect(selectionAtStart({ ...held, pendingRemovalsAt: '2026-04-10' }, '2026-04-10')).toEqual([
      'NADA',
    ]);
  });
  it('keeps a removal that waits for a later bill date, and a selection with none', () => {
    expect(selectionAtStart({ ...held, pendingRemovalsAt: '2026-05-10' }, '2026-04-10')).toEqual([
      'NADA',
      'MMR',
      'CF',
      'AC',
    ]);
    expect(
      selectionAtStart({ ...held, pendingRemovals: [], pendingRemovalsAt: null }, '2026-04-10'),
    ).toEqual(['NADA', 'MMR', 'CF', 'AC']);
  });
});

describe('firstAnnualStartOnOrAfter (R11 with R14: when a renewal by check pays a change)', () => {
  it('is the next year’s start for a change inside the year, that year’s own start on it', () => {
    expect(firstAnnualStartOnOrAfter('2026-01-31', '2027-03-31', '2026-08-01')).toBe('2027-03-31');
    expect(firstAnnualStartOnOrAfter('2026-01-31', '2027-03-31', '2027-03-31')).toBe('2027-03-31');
  });
  it('skips the years that start before the change, on the cycle (clamped as R4)', () => {
    expect(firstAnnualStartOnOrAfter('2026-01-31', '2027-02-28', '2027-06-01')).toBe('2028-02-29');
  });
  it('counts from a start off the cycle (the cycle began again since)', () => {
    expect(firstAnnualStartOnOrAfter('2026-05-05', '2026-04-10', '2026-08-01')).toBe('2027-04-10');
  });
});
