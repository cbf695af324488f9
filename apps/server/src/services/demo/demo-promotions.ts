/**
 * The demo promotion codes (issue 6, README "Demo promotion codes"). Plain data with no
 * imports, so browser tests can read it. Seeded with the demo accounts; the seed adds any code
 * that is missing and leaves existing ones (and their redemption counts) alone.
 */
export interface IDemoPromotion {
  code: string;
  kind: 'percent_off' | 'amount_off' | 'free_months';
  value: number;
  description: string;
  /** Days from the seed until the code stops working; null for never, negative for expired. */
  expiresInDays: number | null;
  maxRedemptions: number | null;
  requiresCard: boolean;
}

export const DEMO_PROMOTIONS: readonly IDemoPromotion[] = [
  {
    code: 'FREEMONTH',
    kind: 'free_months',
    value: 1,
    description: 'First month free; no card needed at sign-up',
    expiresInDays: null,
    maxRedemptions: null,
    requiresCard: false,
  },
  {
    code: 'FREE3CARD',
    kind: 'free_months',
    value: 3,
    description: 'Three months free with a card on file',
    expiresInDays: null,
    maxRedemptions: null,
    requiresCard: true,
  },
  {
    code: 'WELCOME25',
    kind: 'percent_off',
    value: 25,
    description: '25 % off the first month',
    expiresInDays: null,
    maxRedemptions: null,
    requiresCard: false,
  },
  {
    code: 'SAVE20',
    kind: 'amount_off',
    value: 2000,
    description: '$20.00 off the first month',
    expiresInDays: null,
    maxRedemptions: null,
    requiresCard: false,
  },
  {
    code: 'LIMITED1',
    kind: 'free_months',
    value: 1,
    description: 'First month free, for the first sign-up only',
    expiresInDays: null,
    maxRedemptions: 1,
    requiresCard: false,
  },
  {
    code: 'EXPIRED',
    kind: 'percent_off',
    value: 50,
    description: 'An expired code',
    expiresInDays: -1,
    maxRedemptions: null,
    requiresCard: false,
  },
];
