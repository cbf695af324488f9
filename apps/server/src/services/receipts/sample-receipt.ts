/**
 * A realistic receipt for tests, benchmarks and a look at the layout: four paid items and two
 * extras that come free with them, priced by the domain's quote at the payment instant.
 */
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { DEFAULT_COMPANY, DEFAULT_SUPPORT_PHONE } from '@dealerpass/domain/messages';
import { R3_PRICE_TABLE, quote } from '@dealerpass/domain/prices';
import type { IReceipt } from './render-receipt.ts';

export const SAMPLE_SELECTION: readonly TSubscriptionCode[] = [
  'NADA',
  'KBB',
  'MMR',
  'MMR_S',
  'CF',
  'AC',
];

/** The sample receipt, with `overrides` laid over it. */
export function sampleReceipt(overrides: Partial<IReceipt> = {}): IReceipt {
  const issuedAt = new Date('2025-10-06T14:03:27Z');
  const priced = quote(SAMPLE_SELECTION, issuedAt, R3_PRICE_TABLE);
  return {
    company: { name: DEFAULT_COMPANY, supportPhone: DEFAULT_SUPPORT_PHONE },
    account: {
      dealerpassUserId: 'dp_7f3a9c21',
      name: 'Maria O’Connor',
      email: 'maria.oconnor@lakeside-motors.example',
    },
    dealership: {
      name: 'Lakeside Motors (North) LLC',
      address: {
        line1: '4180 Lakeshore Drive',
        line2: 'Suite 200',
        city: 'Chicago',
        state: 'IL',
        postalCode: '60613',
        country: 'United States',
      },
    },
    period: { from: '2025-10-06', to: '2025-11-05' },
    lines: priced.lines,
    platformFeeCents: priced.platformFeeCents,
    totalCents: priced.totalCents,
    card: { brand: 'Visa', lastFour: '4242' },
    paymentDate: '2025-10-06',
    paymentId: 'pay_01JB7Q4X2M9K3W8T5R6Y0ZC1D',
    issuedAt,
    ...overrides,
  };
}
