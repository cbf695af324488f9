import { describe, expect, it } from 'vitest';
import { R3_PRICE_TABLE, type TPriceTable } from '../prices.ts';
import {
  orderSummaryOf,
  priceChangesAhead,
  signupCharges,
  welcomePriceNoticeLines,
} from './order-summary.ts';
import type { IPromotion } from './promotion.ts';

const NY = 'America/New_York';
/** Nov 27, 2026, 10:00 in New York: the sign-up day. */
const NOW = new Date('2026-11-27T15:00:00Z');

function promotion(
  code: string,
  kind: IPromotion['kind'],
  value: number,
  requiresCard = false,
): IPromotion {
  return { code, kind, value, expiresAt: null, maxRedemptions: null, redemptions: 0, requiresCard };
}
const FREEMONTH = promotion('FREEMONTH', 'free_months', 1);
const FREE3CARD = promotion('FREE3CARD', 'free_months', 3, true);
const WELCOME25 = promotion('WELCOME25', 'percent_off', 25);
const SAVE20 = promotion('SAVE20', 'amount_off', 2000);

/** KBB at $70.00 from Dec 27, 2026 (midnight in New York), scheduled after R3's table. */
const KBB_AT_70: TPriceTable = [
  ...R3_PRICE_TABLE,
  { item: 'KBB', from: '2026-12-27T05:00:00.000Z', cents: 7000 },
];

describe('the sign-up Order Summary (001 §2; R4, R11; docs/decisions/032)', () => {
  it('without a promotion: the first month today, the same amount a month on', () => {
    const summary = orderSummaryOf(signupCharges(['KBB'], null, NOW, NY, R3_PRICE_TABLE), {
      code: null,
      problem: null,
    });
    expect(summary).toMatchObject({
      chargedTodayCents: 6800,
      nextChargeDate: '2026-12-27',
      nextChargeCents: 6800,
      priceChanges: [],
    });
    expect(summary.texts).toEqual({
      chargedToday: 'Your first month, $68.00 (plus tax if applicable), is charged today.',
      nextCharge:
        'Your next charge will be $68.00 (plus tax if applicable) on Dec 27, 2026. Cancel or Adjust anytime',
      priceChanges: [],
    });
  });

  it.each([
    [
      FREEMONTH,
      0,
      '2026-12-27',
      'Nothing is charged today: your first month is free with FREEMONTH.',
    ],
    [
      FREE3CARD,
      0,
      '2027-02-27',
      'Nothing is charged today: your first 3 months are free with FREE3CARD.',
    ],
    [
      WELCOME25,
      5100,
      '2026-12-27',
      'Your first month, $51.00 (plus tax if applicable) after $17.00 off with WELCOME25, is charged today.',
    ],
    [
      SAVE20,
      4800,
      '2026-12-27',
      'Your first month, $48.00 (plus tax if applicable) after $20.00 off with SAVE20, is charged today.',
    ],
  ])('%o: charged today and the real first renewal (R4)', (code, today, nextDate, text) => {
    const charges = signupCharges(['KBB'], code, NOW, NY, R3_PRICE_TABLE);
    const summary = orderSummaryOf(charges, { code: code.code, problem: null });
    expect(summary.chargedTodayCents).toBe(today);
    expect(summary.nextChargeDate).toBe(nextDate);
    // A promotion covers the first charge only: the renewal is the full price.
    expect(summary.nextChargeCents).toBe(6800);
    expect(summary.texts.chargedToday).toBe(text);
  });

  it('a renewal falls on the same day clamped to the month (Jan 31 + 3 free months: Apr 30)', () => {
    const charges = signupCharges(
      ['KBB'],
      FREE3CARD,
      new Date('2027-01-31T15:00:00Z'),
      NY,
      R3_PRICE_TABLE,
    );
    expect(charges.nextChargeDate).toEqual({ year: 2027, month: 4, day: 30 });
  });

  it('a change scheduled before the next bill: the summary says what that bill really charges (R11)', () => {
    const summary = orderSummaryOf(signupCharges(['KBB'], null, NOW, NY, KBB_AT_70), {
      code: null,
      problem: null,
    });
    expect(summary).toMatchObject({ chargedTodayCents: 6800, nextChargeCents: 7300 });
    expect(summary.texts.nextCharge).toBe(
      'Your next charge will be $73.00 (plus tax if applicable) on Dec 27, 2026. Cancel or Adjust anytime',
    );
    expect(summary.priceChanges).toEqual([
      {
        effectiveDate: '2026-12-27',
        effectiveFrom: '2026-12-27T05:00:00.000Z',
        oldTotalCents: 6800,
        newTotalCents: 7300,
      },
    ]);
    expect(summary.texts.priceChanges).toEqual([
      'From Dec 27, 2026, the monthly total of these subscriptions changes from $68.00 to $73.00.',
    ]);
    expect(welcomePriceNoticeLines(summary.priceChanges)[0]).toBe(summary.texts.priceChanges[0]);
    // Three free months: the first bill (Feb 27) is at the new price too.
    const free = signupCharges(['KBB'], FREE3CARD, NOW, NY, KBB_AT_70);
    expect(free).toMatchObject({ chargedTodayCents: 0, nextChargeCents: 7300 });
  });

  it('a change after the next bill: that bill at the old price, the change still told', () => {
    const later: TPriceTable = [
      ...R3_PRICE_TABLE,
      { item: 'KBB', from: '2027-01-15T05:00:00.000Z', cents: 7000 },
    ];
    const charges = signupCharges(['KBB'], null, NOW, NY, later);
    expect(charges.nextChargeCents).toBe(6800);
    expect(charges.priceChanges.map((change) => change.effectiveDate)).toEqual(['2027-01-15']);
  });

  it('a change that does not move the selection is not told; one already in force is not ahead', () => {
    expect(priceChangesAhead(['NADA'], NOW, NY, KBB_AT_70)).toEqual([]);
    expect(priceChangesAhead(['KBB'], new Date('2026-12-27T05:00:00Z'), NY, KBB_AT_70)).toEqual([]);
    expect(welcomePriceNoticeLines([])).toEqual([]);
  });

  it('what is charged today is the promotion rule’s first charge, for every code and selection', () => {
    for (const codes of [['KBB'], ['KBB', 'NADA', 'CF'], ['MMR', 'MMR_S']] as const) {
      for (const code of [null, FREEMONTH, FREE3CARD, WELCOME25, SAVE20]) {
        const charges = signupCharges(codes, code, NOW, NY, KBB_AT_70);
        expect(charges.chargedTodayCents).toBe(charges.effect.firstChargeCents);
        expect(charges.chargedTodayCents).toBeLessThanOrEqual(charges.quote.totalCents);
      }
    }
  });
});
