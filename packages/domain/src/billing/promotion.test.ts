import { describe, expect, it } from 'vitest';
import { errorMessage } from '../messages.ts';
import { R3_PRICE_TABLE, quote } from '../prices.ts';
import {
  applyPromotion,
  isValidPromotionValue,
  normalizePromotionCode,
  promotionProblem,
  promotionStatus,
  type IPromotion,
} from './promotion.ts';

const NOW = new Date('2026-03-15T15:00:00Z');
// NADA 70 + MMR 65 + CF/AC free + 3 platform fee = 138.00
const QUOTE = quote(['NADA', 'MMR', 'CF', 'AC'], NOW, R3_PRICE_TABLE);

const promo = (fields: Partial<IPromotion>): IPromotion => ({
  code: 'TEST',
  kind: 'percent_off',
  value: 10,
  expiresAt: null,
  maxRedemptions: null,
  redemptions: 0,
  requiresCard: false,
  ...fields,
});

describe('promotion codes (issue 6, decision 013)', () => {
  it('normalizes what was typed', () => {
    expect(normalizePromotionCode('  welcome10 ')).toBe('WELCOME10');
  });

  it.each([
    ['percent_off', 100, true],
    ['percent_off', 101, false],
    ['percent_off', 0, false],
    ['amount_off', 2500, true],
    ['amount_off', 12.5, false],
    ['amount_off', 1_000_000, true],
    ['amount_off', 1_000_001, false],
    ['free_months', 12, true],
    ['free_months', 13, false],
  ] as const)('%s with %d is valid: %s', (kind, value, valid) => {
    expect(isValidPromotionValue(kind, value)).toBe(valid);
  });

  it('without a promotion charges the quote for one month', () => {
    expect(QUOTE.totalCents).toBe(13800);
    expect(applyPromotion(QUOTE, null)).toEqual({
      firstChargeCents: 13800,
      discountCents: 0,
      coveredMonths: 1,
      line: null,
    });
  });

  it('percent off takes a rounded share of the first charge', () => {
    const effect = applyPromotion(QUOTE, promo({ kind: 'percent_off', value: 25 }));
    expect(effect.firstChargeCents).toBe(10350);
    expect(effect.discountCents).toBe(3450);
    expect(effect.coveredMonths).toBe(1);
    expect(effect.line).toEqual({ code: 'PROMO', name: 'Promotion TEST', cents: -3450 });
  });

  it('amount off never goes below zero', () => {
    expect(applyPromotion(QUOTE, promo({ kind: 'amount_off', value: 2500 })).firstChargeCents).toBe(
      11300,
    );
    expect(
      applyPromotion(QUOTE, promo({ kind: 'amount_off', value: 50_000 })).firstChargeCents,
    ).toBe(0);
  });

  it('free months charge nothing now and push the first renewal out', () => {
    const effect = applyPromotion(QUOTE, promo({ code: 'FREE2', kind: 'free_months', value: 2 }));
    expect(effect).toEqual({
      firstChargeCents: 0,
      discountCents: 13800,
      coveredMonths: 2,
      line: { code: 'PROMO', name: 'Promotion FREE2: 2 free months', cents: -13800 },
    });
  });

  describe('promotionProblem', () => {
    const ctx = { now: NOW, hasCard: true, quote: QUOTE };

    it('accepts a usable code', () => {
      expect(promotionProblem(promo({}), ctx)).toBeNull();
    });

    it('an unknown or expired code is not valid', () => {
      expect(promotionProblem(null, ctx)).toBe('PROMO_NOT_VALID');
      expect(promotionProblem(promo({ expiresAt: NOW }), ctx)).toBe('PROMO_NOT_VALID');
      expect(promotionProblem(promo({ expiresAt: new Date(NOW.getTime() + 1) }), ctx)).toBeNull();
      expect(promotionProblem(promo({ value: 0 }), ctx)).toBe('PROMO_NOT_VALID');
    });

    it('a code disabled by staff is refused exactly like an expired one (R12)', () => {
      const disabled = promo({ disabledAt: new Date(NOW.getTime() - 1) });
      expect(promotionProblem(disabled, ctx)).toBe(
        promotionProblem(promo({ expiresAt: NOW }), ctx),
      );
      expect(promotionProblem(promo({ disabledAt: null }), ctx)).toBeNull();
      // Disabled wins over a used-up limit: the code is simply not valid any more.
      expect(
        promotionProblem(promo({ disabledAt: NOW, maxRedemptions: 1, redemptions: 1 }), ctx),
      ).toBe('PROMO_NOT_VALID');
    });

    it('a used-up code has exceeded its limits', () => {
      expect(promotionProblem(promo({ maxRedemptions: 3, redemptions: 3 }), ctx)).toBe(
        'PROMO_RETRIES_EXCEEDED',
      );
      expect(promotionProblem(promo({ maxRedemptions: 3, redemptions: 2 }), ctx)).toBeNull();
    });

    it('needs a card when it says so, or when something is left to charge', () => {
      const noCard = { ...ctx, hasCard: false };
      expect(promotionProblem(promo({ kind: 'free_months', value: 1 }), noCard)).toBeNull();
      expect(
        promotionProblem(promo({ kind: 'free_months', value: 1, requiresCard: true }), noCard),
      ).toBe('PROMO_REQUIRES_CARD');
      expect(promotionProblem(promo({ kind: 'percent_off', value: 50 }), noCard)).toBe(
        'PROMO_REQUIRES_CARD',
      );
      expect(promotionProblem(promo({ kind: 'percent_off', value: 100 }), noCard)).toBeNull();
    });

    it('its codes carry the specified texts', () => {
      expect(errorMessage('PROMO_NOT_VALID')).toBe('Promotion code not valid.');
      expect(errorMessage('PROMO_RETRIES_EXCEEDED')).toBe(
        'Promotion code retries has exceeded limits',
      );
      expect(errorMessage('PROMO_REQUIRES_CARD')).toBe(
        'Entered promotion code requires credit card.',
      );
      expect(errorMessage('PAYMENT_TYPE_REQUIRED')).toBe(
        'Either a credit card, promotion code, or both are required.',
      );
    });
  });

  it.each([
    ['an open code', {}, 'active'],
    [
      'a code past its expiry (issue 25: shown as Active)',
      { expiresAt: new Date('2026-03-01T05:00:00Z') },
      'expired',
    ],
    ['a code at the first instant it no longer works', { expiresAt: NOW }, 'expired'],
    ['a code expiring later', { expiresAt: new Date('2026-04-01T05:00:00Z') }, 'active'],
    ['a code with its redemptions used up', { maxRedemptions: 2, redemptions: 2 }, 'used up'],
    ['a code with redemptions left', { maxRedemptions: 2, redemptions: 1 }, 'active'],
    [
      'a disabled code, expired and used up too',
      { disabledAt: NOW, expiresAt: NOW, maxRedemptions: 1, redemptions: 1 },
      'disabled',
    ],
    [
      'an expired code used up too',
      { expiresAt: NOW, maxRedemptions: 1, redemptions: 1 },
      'expired',
    ],
  ] as const)('promotionStatus: %s is %s', (_name, fields, status) => {
    expect(promotionStatus(promo(fields), NOW)).toBe(status);
  });
});
