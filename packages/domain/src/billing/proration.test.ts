import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SELECTABLE_CODES } from '../catalogue.ts';
import type { TSubscriptionCode } from '../catalogue.ts';
import { R3_PRICE_TABLE, quote } from '../prices.ts';
import { selectCode, EMPTY_SELECTION, sanitizeCodes } from '../selection.ts';
import {
  addDays,
  addMonthsClamped,
  daysInMonth,
  startOfDayIn,
  toIsoDate,
} from '../time/calendar-date.ts';
import {
  applyPendingRemovals,
  changeAllowance,
  planSubscriptionChange,
  prorateCents,
  prorateChange,
} from './proration.ts';

const ZONE = 'America/New_York';
const AFTER_FEE = new Date('2026-03-15T15:00:00Z');

describe('prorateCents (R10: exact to the cent, half up)', () => {
  it.each([
    [3000, 15, 30, 1500],
    [3000, 1, 30, 100],
    [1000, 1, 3, 333],
    [1000, 2, 3, 667],
    [100, 1, 8, 13], // 12.5 → 13
    [300, 1, 8, 38], // 37.5 → 38
    [7300, 14, 28, 3650],
    [7300, 1, 31, 235], // 235.48
    [7300, 0, 31, 0],
    [7300, 31, 31, 7300],
  ])('%i × %i/%i = %i', (amount, days, of, cents) => {
    expect(prorateCents(amount, days, of)).toBe(cents);
  });

  it('refuses an empty period', () => {
    expect(() => prorateCents(100, 0, 0)).toThrow(RangeError);
  });

  it('property: equals the exact fraction rounded half up', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500_000 }),
        fc.integer({ min: 28, max: 31 }),
        fc.integer({ min: 0, max: 31 }),
        (amount, of, daysRaw) => {
          const days = Math.min(daysRaw, of);
          const cents = prorateCents(amount, days, of);
          // |cents − exact| ≤ ½, and exactly ½ rounds up.
          const twice = 2 * amount * days;
          expect(Math.abs(2 * cents * of - twice)).toBeLessThanOrEqual(of);
          if (Math.abs(2 * cents * of - twice) === of)
            expect(2 * cents * of).toBeGreaterThan(twice);
          expect(cents).toBeGreaterThanOrEqual(0);
          expect(cents).toBeLessThanOrEqual(amount);
        },
      ),
    );
  });
});

/** The instant `hour` o'clock in New York on a business date. */
function nyAt(iso: string, hour: number): Date {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return new Date(startOfDayIn({ year: y, month: m, day: d }, ZONE).getTime() + hour * 3_600_000);
}

describe('prorateChange (R10)', () => {
  const base = {
    currentCodes: ['NADA'] as TSubscriptionCode[],
    timeZone: ZONE,
    table: R3_PRICE_TABLE,
  };

  it.each([
    // period, today, days left, days in period
    ['2026-02-10', '2026-03-10', '2026-02-24', 14, 28],
    ['2026-03-10', '2026-04-10', '2026-03-25', 16, 31],
    ['2026-04-10', '2026-05-10', '2026-04-25', 15, 30],
    ['2028-02-10', '2028-03-10', '2028-02-29', 10, 29],
    ['2026-03-10', '2026-04-10', '2026-03-10', 31, 31],
    ['2026-03-10', '2026-04-10', '2026-04-09', 1, 31],
  ])('%s – %s on %s: %i of %i days', (start, end, today, left, days) => {
    // Adding MMR (65.00) to NADA (70.00 + 3.00 fee): the difference is 65.00, extras not held.
    const result = prorateChange({
      ...base,
      newCodes: ['NADA', 'MMR'],
      at: nyAt(today, 12),
      periodStart: start,
      periodEnd: end,
    });
    expect([result.daysLeft, result.daysInPeriod]).toEqual([left, days]);
    expect(result.currentMonthlyCents).toBe(7300);
    expect(result.newMonthlyCents).toBe(13800);
    expect(result.chargeCents).toBe(prorateCents(6500, left, days));
  });

  it('reads today in the business time zone: 23:30 in New York is still that day', () => {
    const at = new Date('2026-03-25T03:30:00Z'); // 23:30 on March 24 in New York (EDT)
    const result = prorateChange({
      ...base,
      newCodes: ['NADA', 'MMR'],
      at,
      periodStart: '2026-03-10',
      periodEnd: '2026-04-10',
    });
    expect(result.daysLeft).toBe(17);
  });

  it('counts calendar days across a daylight-saving change (a 23-hour day is one day)', () => {
    // 8 March 2026: clocks go forward in New York. The period still has 31 days.
    const before = prorateChange({
      ...base,
      newCodes: ['NADA', 'MMR'],
      at: nyAt('2026-03-07', 23),
      periodStart: '2026-02-20',
      periodEnd: '2026-03-20',
    });
    const after = prorateChange({
      ...base,
      newCodes: ['NADA', 'MMR'],
      at: nyAt('2026-03-08', 5),
      periodStart: '2026-02-20',
      periodEnd: '2026-03-20',
    });
    expect([before.daysLeft, after.daysLeft, after.daysInPeriod]).toEqual([13, 12, 28]);
    const fall = prorateChange({
      ...base,
      newCodes: ['NADA', 'MMR'],
      at: nyAt('2026-11-01', 1),
      periodStart: '2026-10-15',
      periodEnd: '2026-11-15',
    });
    expect([fall.daysLeft, fall.daysInPeriod]).toEqual([14, 31]);
  });

  it('charges nothing when the total does not grow: a second paid item can make extras free', () => {
    // NADA + CF + AC: 70 + 55 + 55 + 3 = 183. Adding MMR (65) frees the extras: 138. Negative.
    const result = prorateChange({
      ...base,
      currentCodes: ['NADA', 'CF', 'AC'],
      newCodes: ['NADA', 'MMR', 'CF', 'AC'],
      at: AFTER_FEE,
      periodStart: '2026-03-10',
      periodEnd: '2026-04-10',
    });
    expect(result.newMonthlyCents - result.currentMonthlyCents).toBe(13800 - 18300);
    expect(result.chargeCents).toBe(0);
    const same = prorateChange({
      ...base,
      newCodes: ['NADA'],
      at: AFTER_FEE,
      periodStart: '2026-03-10',
      periodEnd: '2026-04-10',
    });
    expect(same.chargeCents).toBe(0);
  });

  it('adds the platform fee once: a first item on an empty selection charges it too', () => {
    const result = prorateChange({
      ...base,
      currentCodes: [],
      newCodes: ['KBB'],
      at: nyAt('2026-03-10', 9),
      periodStart: '2026-03-10',
      periodEnd: '2026-04-10',
    });
    expect(result.chargeCents).toBe(6800);
  });

  const codes = fc.uniqueArray(fc.constantFrom(...SELECTABLE_CODES)).map(sanitizeCodes);
  const anchor = fc
    .record({
      year: fc.integer({ min: 2025, max: 2030 }),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 31 }),
    })
    .map((d) => ({ ...d, day: Math.min(d.day, daysInMonth(d.year, d.month)) }));

  it('property: never negative, never more than the difference, full period = full difference', () => {
    fc.assert(
      fc.property(
        codes,
        codes,
        anchor,
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 23 }),
        (current, extra, start, offset, hour) => {
          const end = addMonthsClamped(start, 1);
          const days = Math.round(
            (Date.UTC(end.year, end.month - 1, end.day) -
              Date.UTC(start.year, start.month - 1, start.day)) /
              86_400_000,
          );
          const today = addDays(start, Math.min(offset, days - 1));
          const at = nyAt(toIsoDate(today), hour);
          const next = sanitizeCodes([...current, ...extra]);
          const result = prorateChange({
            ...base,
            currentCodes: current,
            newCodes: next,
            at,
            periodStart: toIsoDate(start),
            periodEnd: toIsoDate(end),
          });
          const difference =
            quote(next, at, R3_PRICE_TABLE).totalCents -
            quote(current, at, R3_PRICE_TABLE).totalCents;
          expect(result.daysInPeriod).toBe(days);
          expect(days).toBeGreaterThanOrEqual(28);
          expect(days).toBeLessThanOrEqual(31);
          expect(Number.isInteger(result.chargeCents)).toBe(true);
          expect(result.chargeCents).toBeGreaterThanOrEqual(0);
          expect(result.chargeCents).toBeLessThanOrEqual(Math.max(0, difference));
          if (difference <= 0) expect(result.chargeCents).toBe(0);
          if (result.daysLeft === days) expect(result.chargeCents).toBe(Math.max(0, difference));
        },
      ),
    );
  });
});

describe('planSubscriptionChange (R10 with the sign-up rules of R3)', () => {
  const withTwoPaid = selectCode(selectCode(EMPTY_SELECTION, 'NADA'), 'MMR');

  it('additions and removals, with the selection in force now and from the next bill', () => {
    const plan = planSubscriptionChange(withTwoPaid, ['NADA', 'KBB', 'CF', 'CF_S', 'AC', 'AC_S']);
    expect(plan.added).toEqual(['KBB']);
    expect(plan.removed).toEqual(['MMR']);
    expect(plan.inForceNow.codes).toEqual(['NADA', 'KBB', 'MMR', 'CF', 'CF_S', 'AC', 'AC_S']);
    expect(plan.fromNextBill.codes).toEqual(['NADA', 'KBB', 'CF', 'CF_S', 'AC', 'AC_S']);
    expect(plan.fromNextBill.autoExtras).toEqual(['CF', 'CF_S', 'AC', 'AC_S']);
  });

  it('a second paid item brings the extras in automatically', () => {
    const one = selectCode(EMPTY_SELECTION, 'NADA');
    const plan = planSubscriptionChange(one, ['NADA', 'MMR', 'CF', 'CF_S', 'AC', 'AC_S']);
    expect(plan.fromNextBill.autoExtras).toEqual(['CF', 'CF_S', 'AC', 'AC_S']);
    expect(plan.inForceNow.autoExtras).toEqual(['CF', 'CF_S', 'AC', 'AC_S']);
  });

  it('drops what is not selectable and simulcasts without their base', () => {
    const plan = planSubscriptionChange(withTwoPaid, ['NADA', 'GALVES_S', 'KBB_S', 'BOGUS']);
    expect(plan.fromNextBill.codes).toEqual(['NADA']);
  });

  it('applyPendingRemovals: a base takes its simulcast, fewer than two paid takes the automatic extras', () => {
    const selection = selectCode(withTwoPaid, 'NADA_S');
    const after = applyPendingRemovals(selection, ['MMR', 'NADA']);
    expect(after.codes).toEqual([]);
    const kept = applyPendingRemovals(withTwoPaid, ['MMR']);
    expect(kept).toEqual({ codes: ['NADA'], autoExtras: [] });
  });

  it('the removals applied at the bill date leave exactly the selection the change asked for', () => {
    const selectionFrom = (codes: TSubscriptionCode[]) =>
      codes.reduce((selection, code) => selectCode(selection, code), EMPTY_SELECTION);
    const codes = fc.subarray([...SELECTABLE_CODES]);
    fc.assert(
      fc.property(codes, codes, (held, requested) => {
        const plan = planSubscriptionChange(selectionFrom(held), requested);
        // An extra the change keeps while paid items go (fewer than two left) is chosen, not
        // automatic: it stays at the bill date and is charged, as the preview said.
        expect(applyPendingRemovals(plan.inForceNow, plan.removed).codes).toEqual(
          plan.fromNextBill.codes,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('an extra kept alone after the paid items go is kept at the bill date', () => {
    const held = selectCode(withTwoPaid, 'CF');
    const plan = planSubscriptionChange(held, ['CF']);
    expect(applyPendingRemovals(plan.inForceNow, plan.removed).codes).toEqual(['CF']);
  });

  it('applyPendingRemovals: a simulcast removed alone leaves while its base stays', () => {
    const selection = selectCode(withTwoPaid, 'NADA_S');
    expect(applyPendingRemovals(selection, ['NADA_S']).codes).toEqual(withTwoPaid.codes);
  });

  it.each([
    ['active', false, 'any'],
    ['validating payment', false, 'removalsOnly'],
    ['pending cancel', false, 'none'],
    ['inactive', false, 'none'],
    ['pending reactivation', false, 'none'],
    ['active', true, 'none'],
  ] as const)('changeAllowance(%s, complimentary %s) = %s', (status, comp, allowance) => {
    expect(changeAllowance(status, comp)).toBe(allowance);
  });

  it.each([
    ['active', true, 'any'],
    ['active', false, 'any'],
    ['validating payment', false, 'removalsOnly'],
    ['pending cancel', true, 'none'],
    ['inactive', false, 'none'],
  ] as const)('changeAllowance(%s, complimentary %s, staff) = %s', (status, comp, allowance) => {
    expect(changeAllowance(status, comp, 'staff')).toBe(allowance);
  });
});
