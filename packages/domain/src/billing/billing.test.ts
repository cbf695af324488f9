import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { daysInMonth } from '../time/calendar-date.ts';
import {
  CHARGEBACK_FEE_CENTS,
  PAYMENT_RETRY_DAYS,
  TRIAL_DAYS,
  billDateOfCycle,
  billDateStartsAt,
  cycleIndexOn,
  daysUntil,
  formatBillDate,
  isWithinTrial,
  nextBillDate,
  nextBillDateAt,
  paymentRetryDates,
  periodKey,
  renewalDue,
  trialEndsAt,
} from './renewal-calendar.ts';
import { SUBTOTAL_STORAGE_KEY, firstChargeText, nextChargeText } from './order-summary.ts';
import { cancellationKind, reactivationChargeCents, subscriptionChargeCents } from './charges.ts';
import { R3_PRICE_TABLE } from '../prices.ts';
import {
  defaultHistoryYear,
  noReceiptsMessage,
  paymentHistoryYears,
  receiptFileName,
  sortPaymentsNewestFirst,
  uniqueFileNames,
  yearZipFileName,
} from './payment-history.ts';

const NY = 'America/New_York';

describe('renewal calendar (DECISIONS R4)', () => {
  const jan31 = { year: 2025, month: 1, day: 31 };

  it.each([
    [0, '2025-01-31'],
    [1, '2025-02-28'],
    [2, '2025-03-31'],
    [3, '2025-04-30'],
    [13, '2026-02-28'],
  ])('cycle %i of Jan 31 → %s (clamped, never drifting)', (n, key) => {
    expect(periodKey(jan31, n)).toBe(key);
  });

  it('leap years', () => {
    expect(billDateOfCycle({ year: 2024, month: 1, day: 30 }, 1)).toEqual({
      year: 2024,
      month: 2,
      day: 29,
    });
  });

  it.each([
    [{ year: 2025, month: 1, day: 30 }, -1, { year: 2025, month: 1, day: 31 }],
    [{ year: 2025, month: 1, day: 31 }, 0, { year: 2025, month: 2, day: 28 }],
    [{ year: 2025, month: 2, day: 27 }, 0, { year: 2025, month: 2, day: 28 }],
    [{ year: 2025, month: 2, day: 28 }, 1, { year: 2025, month: 3, day: 31 }],
    [{ year: 2025, month: 3, day: 30 }, 1, { year: 2025, month: 3, day: 31 }],
  ])('on %j: cycle %i, next bill date %j', (today, cycle, next) => {
    expect(cycleIndexOn(jan31, today)).toBe(cycle);
    expect(nextBillDate(jan31, today)).toEqual(next);
  });

  it('reads today in the business time zone', () => {
    const anchor = { year: 2025, month: 1, day: 15 };
    // 03:00 UTC on Feb 15 is still Feb 14 in New York: the Feb 15 renewal is next.
    expect(nextBillDateAt(anchor, new Date('2025-02-15T03:00:00Z'), NY)).toEqual({
      year: 2025,
      month: 2,
      day: 15,
    });
    expect(nextBillDateAt(anchor, new Date('2025-02-15T06:00:00Z'), NY)).toEqual({
      year: 2025,
      month: 3,
      day: 15,
    });
    expect(billDateStartsAt({ year: 2025, month: 2, day: 15 }, NY).toISOString()).toBe(
      '2025-02-15T05:00:00.000Z',
    );
  });

  it('renewal due once per cycle', () => {
    const anchor = { year: 2025, month: 1, day: 15 };
    expect(renewalDue(anchor, { year: 2025, month: 2, day: 15 }, 0)).toEqual({
      due: true,
      cycle: 1,
    });
    expect(renewalDue(anchor, { year: 2025, month: 2, day: 16 }, 1)).toEqual({
      due: false,
      cycle: 1,
    });
    expect(renewalDue(anchor, { year: 2025, month: 2, day: 14 }, 0)).toEqual({
      due: false,
      cycle: 0,
    });
  });

  it('trial of 10 days (R4, 001 §9)', () => {
    const charged = new Date('2025-03-01T15:00:00Z');
    expect(TRIAL_DAYS).toBe(10);
    expect(trialEndsAt(charged).toISOString()).toBe('2025-03-11T15:00:00.000Z');
    expect(isWithinTrial(charged, new Date('2025-03-11T14:59:59Z'))).toBe(true);
    expect(isWithinTrial(charged, new Date('2025-03-11T15:00:00Z'))).toBe(false);
    expect(isWithinTrial(charged, new Date('2025-02-28T00:00:00Z'))).toBe(false);
    expect(isWithinTrial(null, charged)).toBe(false);
  });

  it('retries 1, 3 and 5 days later; chargeback fee $25 (R4)', () => {
    expect(PAYMENT_RETRY_DAYS).toEqual([1, 3, 5]);
    expect(paymentRetryDates({ year: 2025, month: 2, day: 27 })).toEqual([
      { year: 2025, month: 2, day: 28 },
      { year: 2025, month: 3, day: 2 },
      { year: 2025, month: 3, day: 4 },
    ]);
    expect(CHARGEBACK_FEE_CENTS).toBe(2500);
  });

  it('days until and the date text', () => {
    expect(daysUntil({ year: 2025, month: 3, day: 10 }, new Date('2025-03-01T03:00:00Z'), NY)).toBe(
      10,
    );
    expect(formatBillDate({ year: 2025, month: 3, day: 10 })).toBe('Mar 10, 2025');
    expect(formatBillDate(null)).toBe('N/A');
  });

  it('property: every bill date is the anchor day or the month end, and after today', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2020, max: 2035 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 0, max: 400 }),
        (year, month, rawDay, offset) => {
          const anchor = { year, month, day: Math.min(rawDay, daysInMonth(year, month)) };
          const later = new Date(Date.UTC(year, month - 1, anchor.day + offset));
          const t = {
            year: later.getUTCFullYear(),
            month: later.getUTCMonth() + 1,
            day: later.getUTCDate(),
          };
          const next = nextBillDate(anchor, t);
          const key = Date.UTC(next.year, next.month - 1, next.day);
          expect(key).toBeGreaterThan(Date.UTC(t.year, t.month - 1, t.day));
          expect(next.day === anchor.day || next.day === daysInMonth(next.year, next.month)).toBe(
            true,
          );
          expect(next.day).toBeLessThanOrEqual(anchor.day);
        },
      ),
    );
  });
});

describe('order summary (001 §2, R4)', () => {
  it('shows the first renewal date', () => {
    expect(nextChargeText(13800, { year: 2025, month: 2, day: 28 })).toBe(
      'Your next charge will be $138.00 (plus tax if applicable) on Feb 28, 2025. Cancel or Adjust anytime',
    );
    expect(SUBTOTAL_STORAGE_KEY).toBe('sub_total');
  });

  it('says the first month is charged today (R4), before the next charge', () => {
    expect(firstChargeText(13800)).toBe(
      'Your first month, $138.00 (plus tax if applicable), is charged today.',
    );
  });
});

describe('payment history (000 §4, §7, §9; R9)', () => {
  it.each([
    ['2025-06-01T12:00:00Z', [2025, 2024, 2023, 2022, 2021]],
    ['2022-06-01T12:00:00Z', [2022, 2021, 2020]],
    ['2020-01-01T04:00:00Z', []], // still 2019 in New York
    ['2030-01-01T12:00:00Z', [2030, 2029, 2028, 2027, 2026]],
  ])('years at %s', (iso, years) => {
    expect(paymentHistoryYears(new Date(iso), NY)).toEqual(years);
  });

  it('default year, sorting, names, message', () => {
    expect(defaultHistoryYear(new Date('2025-01-01T03:00:00Z'), NY)).toBe(2024);
    expect(
      sortPaymentsNewestFirst([
        { activationDate: '2025-01-05' },
        { activationDate: '2025-03-05' },
        { activationDate: '2025-03-05' },
        { activationDate: '2025-02-05' },
      ]).map((p) => p.activationDate),
    ).toEqual(['2025-03-05', '2025-03-05', '2025-02-05', '2025-01-05']);
    expect(receiptFileName('2025-03-05')).toBe('2025-03-05-payment.pdf');
    expect(receiptFileName('2025-03-05T10:00:00Z')).toBe('2025-03-05-payment.pdf');
    expect(yearZipFileName(2025)).toBe('2025-payments-history.zip');
    expect(uniqueFileNames(['a.pdf', 'a.pdf', 'b', 'b'])).toEqual(['a.pdf', 'a-2.pdf', 'b', 'b-2']);
    expect(noReceiptsMessage(2024, '1-800-555-0199')).toBe(
      'We are unable to process your request. You do not have a current receipt available for 2024, please contact Support at 1-800-555-0199 to obtain a copy.',
    );
  });
});

describe('charges (R3, R4)', () => {
  const at = new Date('2025-10-01T12:00:00Z');
  it('charges the price table at the charge instant', () => {
    expect(subscriptionChargeCents(['NADA'], at, R3_PRICE_TABLE)).toBe(7300);
    expect(reactivationChargeCents(['NADA'], at, 2500, R3_PRICE_TABLE)).toBe(9800);
    expect(reactivationChargeCents(['NADA'], at, -10000, R3_PRICE_TABLE)).toBe(0);
  });
  it('cancellation inside and after the trial', () => {
    const charged = new Date('2025-09-25T12:00:00Z');
    expect(cancellationKind(charged, at)).toBe('cancelInTrial');
    expect(cancellationKind(charged, new Date('2025-10-06T12:00:00Z'))).toBe('cancel');
    expect(cancellationKind(null, at)).toBe('cancel');
  });
});
