import { describe, expect, it } from 'vitest';
import {
  billingPeriodShown,
  billingPeriodText,
  cardBrandName,
  paidWithText,
  paymentPaidWith,
} from './receipt-text.ts';

describe('receipt texts shared by the PDF, the e-mail and the payment history (issue 14)', () => {
  it.each([
    ['visa', 'Visa'],
    ['VISA', 'Visa'],
    ['mastercard', 'Mastercard'],
    ['amex', 'American Express'],
    ['discover', 'Discover'],
    ['Visa', 'Visa'],
    ['Diners Club', 'Diners Club'],
    ['', 'Card'],
  ])('the brand %j is shown as %j', (brand, name) => {
    expect(cardBrandName(brand)).toBe(name);
  });

  it('names the card as the receipt does', () => {
    expect(paidWithText('visa', '1111')).toBe('Visa ending in 1111');
    expect(paidWithText(null, null)).toBe('Card ending in ----');
  });

  it('names a check payment by its whole number, a card payment by its card (R14)', () => {
    expect(
      paymentPaidWith({
        gatewayTransactionId: 'check:001234567',
        cardBrand: 'Check',
        cardLast4: '4567',
      }),
    ).toBe('Check 001234567');
    expect(
      paymentPaidWith({
        gatewayTransactionId: '60123456789',
        cardBrand: 'visa',
        cardLast4: '1111',
      }),
    ).toBe('Visa ending in 1111');
  });

  it('shows a period by its first and last day: the next period starts the day after', () => {
    expect(billingPeriodShown('2026-11-23', '2026-12-23')).toEqual({
      from: '2026-11-23',
      to: '2026-12-22',
    });
    expect(billingPeriodShown('2026-02-28', '2026-03-01')).toEqual({
      from: '2026-02-28',
      to: '2026-02-28',
    });
    expect(billingPeriodText({ from: '2026-11-23', to: '2026-12-22' })).toBe(
      'Nov 23, 2026 – Dec 22, 2026',
    );
  });
});
