import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { centsToDollars, dollarsToCents, formatCurrency, formatDollars } from './money.ts';

describe('formatCurrency', () => {
  // 000 §4 Billing summary: $ sign, two decimals, leading minus, or N/A.
  it.each([
    [123450, '$1,234.50'],
    [-300, '-$3.00'],
    [0, '$0.00'],
    [5, '$0.05'],
    [100000000, '$1,000,000.00'],
    [null, 'N/A'],
    [undefined, 'N/A'],
    [Number.NaN, 'N/A'],
  ])('%s → %s', (cents, text) => {
    expect(formatCurrency(cents)).toBe(text);
  });

  it('round-trips any integer amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (cents) => {
        const text = formatCurrency(cents);
        const back = Number(text.replace(/[$,]/g, '')) * 100;
        expect(Math.round(back)).toBe(cents);
      }),
    );
  });
});

describe('dollars and cents', () => {
  // DECISIONS R4: currentBalance is dollars with two decimals.
  it.each([
    [12.34, 1234],
    [-25, -2500],
    [0.1 + 0.2, 30],
    [-0.001, 0],
  ])('dollarsToCents(%s) = %s', (dollars, cents) => {
    expect(dollarsToCents(dollars)).toBe(cents);
  });

  it('centsToDollars', () => {
    expect(centsToDollars(1234)).toBe(12.34);
  });

  it.each([
    [-12.5, '-$12.50'],
    [null, 'N/A'],
    [70, '$70.00'],
  ])('formatDollars(%s) = %s', (dollars, text) => {
    expect(formatDollars(dollars)).toBe(text);
  });
});
