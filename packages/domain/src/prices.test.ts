import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SELECTABLE_CODES, isExtraCode } from './catalogue.ts';
import type { TSubscriptionCode } from './catalogue.ts';
import {
  countPaid,
  extrasAreFree,
  nextPriceChangeAfter,
  platformFeeFor,
  priceOf,
  quote,
  R3_PRICE_TABLE,
} from './prices.ts';

const selection = fc.uniqueArray(fc.constantFrom(...SELECTABLE_CODES)) as fc.Arbitrary<
  TSubscriptionCode[]
>;

const BEFORE_2025 = new Date('2025-01-01T04:59:59.999Z');
const FROM_2025 = new Date('2025-01-01T05:00:00Z');
const BEFORE_FEE = new Date('2025-09-02T04:59:59.999Z');
const FROM_FEE = new Date('2025-09-02T05:00:00Z');

describe('priceOf (DECISIONS R3, 000 §9, 001 §9)', () => {
  it.each([
    ['APG', BEFORE_2025, 6500],
    ['GALVES', FROM_2025, 6500],
    ['BBK', FROM_2025, 6500],
    ['KBB', FROM_2025, 6500],
    ['NADA', BEFORE_2025, 6500],
    ['NADA', FROM_2025, 7000],
    ['MMR', BEFORE_2025, 8000],
    ['MMR', FROM_2025, 6500],
    ['ANET', BEFORE_2025, 6500],
    ['PMR', BEFORE_2025, 6500],
    ['RETAIL', BEFORE_2025, 3500],
    ['WHLSLE', FROM_2025, 3500],
    ['CF', FROM_2025, 5500],
    ['AC', BEFORE_2025, 5500],
    ['NADA_S', FROM_2025, 3500],
    ['CF_S', FROM_2025, 3500],
    ['AC_S', FROM_2025, 3500],
  ] as const)('%s at %s is %i cents', (code, at, cents) => {
    expect(priceOf(code, at, R3_PRICE_TABLE)).toBe(cents);
  });
});

describe('platform fee (R3)', () => {
  it.each([
    [6500, BEFORE_FEE, 0],
    [6500, FROM_FEE, 300],
    [0, FROM_FEE, 0],
  ])('subtotal %i at %s → %i', (subtotal, at, fee) => {
    expect(platformFeeFor(subtotal, at, R3_PRICE_TABLE)).toBe(fee);
  });
});

describe('quote', () => {
  it('one guide: charged extras, fee (R3)', () => {
    const q = quote(['NADA', 'CF'], FROM_FEE, R3_PRICE_TABLE);
    expect(q.lines.map((l) => [l.code, l.cents, l.free])).toEqual([
      ['NADA', 7000, false],
      ['CF', 5500, false],
    ]);
    expect(q.platformFeeCents).toBe(300);
    expect(q.totalCents).toBe(12800);
  });

  it('two paid items (base + simulcast count): extras free (R3)', () => {
    const q = quote(['NADA', 'NADA_S', 'CF', 'AC', 'CF_S', 'AC_S'], FROM_2025, R3_PRICE_TABLE);
    expect(q.lines.filter((l) => l.free).map((l) => l.code)).toEqual(['CF', 'CF_S', 'AC', 'AC_S']);
    expect(q.totalCents).toBe(10500);
    expect(q.platformFeeCents).toBe(0);
  });

  it('empty selection: zero and no fee', () => {
    expect(quote([], FROM_FEE, R3_PRICE_TABLE)).toEqual({
      lines: [],
      subtotalCents: 0,
      platformFeeCents: 0,
      totalCents: 0,
    });
  });

  it('ignores GALVES_S and duplicates', () => {
    const q = quote(['GALVES', 'GALVES_S', 'GALVES'], BEFORE_2025, R3_PRICE_TABLE);
    expect(q.lines.map((l) => l.code)).toEqual(['GALVES']);
    expect(countPaid(['GALVES', 'GALVES_S'])).toBe(1);
  });

  it('old catalogue (before 2025): market reports 65, 65, 80, 35, 35', () => {
    const q = quote(['ANET', 'PMR', 'MMR', 'RETAIL', 'WHLSLE'], BEFORE_2025, R3_PRICE_TABLE);
    expect(q.lines.map((l) => l.cents)).toEqual([6500, 8000, 3500, 3500, 6500]);
  });

  const instant = fc.date({
    min: new Date('2020-01-01T00:00:00Z'),
    max: new Date('2030-01-01T00:00:00Z'),
    noInvalidDate: true,
  });

  it('property: total equals the lines plus the fee, all integer cents', () => {
    fc.assert(
      fc.property(selection, instant, (codes, at) => {
        const q = quote(codes, at, R3_PRICE_TABLE);
        const sum = q.lines.reduce((s, l) => s + l.cents, 0);
        expect(q.subtotalCents).toBe(sum);
        expect(q.totalCents).toBe(sum + q.platformFeeCents);
        expect(Number.isInteger(q.totalCents)).toBe(true);
        expect(q.platformFeeCents === 0 || q.subtotalCents > 0).toBe(true);
      }),
    );
  });

  it('property: extras are free exactly when two or more paid items are selected', () => {
    fc.assert(
      fc.property(selection, instant, (codes, at) => {
        const q = quote(codes, at, R3_PRICE_TABLE);
        const paid = codes.filter((c) => !isExtraCode(c)).length;
        expect(extrasAreFree(codes)).toBe(paid >= 2);
        for (const line of q.lines) {
          expect(line.free).toBe(isExtraCode(line.code) && paid >= 2);
          expect(line.cents).toBe(line.free ? 0 : line.listCents);
        }
      }),
    );
  });
});

describe('nextPriceChangeAfter (R3: a price shown is the price of the moment it is shown)', () => {
  it('is the next instant any price or the fee changes, or null after the last', () => {
    expect(nextPriceChangeAfter(new Date('2024-06-01T00:00:00Z'), R3_PRICE_TABLE)).toEqual(
      FROM_2025,
    );
    expect(nextPriceChangeAfter(BEFORE_2025, R3_PRICE_TABLE)).toEqual(FROM_2025);
    expect(nextPriceChangeAfter(FROM_2025, R3_PRICE_TABLE)).toEqual(FROM_FEE);
    expect(nextPriceChangeAfter(BEFORE_FEE, R3_PRICE_TABLE)).toEqual(FROM_FEE);
    expect(nextPriceChangeAfter(FROM_FEE, R3_PRICE_TABLE)).toBeNull();
  });

  it('property: no quote changes between an instant and the next price change', () => {
    fc.assert(
      fc.property(
        selection,
        fc.date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2026-12-31T00:00:00Z') }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (codes, at, fraction) => {
          const next = nextPriceChangeAfter(at, R3_PRICE_TABLE);
          const end = next ? next.getTime() - 1 : at.getTime() + 365 * 86_400_000;
          const between = new Date(at.getTime() + Math.floor((end - at.getTime()) * fraction));
          expect(quote(codes, between, R3_PRICE_TABLE)).toEqual(quote(codes, at, R3_PRICE_TABLE));
        },
      ),
    );
  });
});
