import { describe, expect, it } from 'vitest';
import {
  STAFF_MAX_AMOUNT_CENTS,
  ZBalanceAdjustmentRequestSchema,
  ZBlockAccountRequestSchema,
  ZRefundPaymentRequestSchema,
  ZStaffActionRequestSchema,
} from './account-actions.ts';

const KEY = '7d3c2a4e-5b6f-4a1d-9c8e-0f1a2b3c4d5e';

describe('the console’s action requests (R12, decision 026)', () => {
  it('trims the reason and keeps it between 3 and 500 characters', () => {
    expect(ZBlockAccountRequestSchema.parse({ requestKey: KEY, reason: '  fraud  ' }).reason).toBe(
      'fraud',
    );
    for (const reason of ['', '  ab  ', 'x'.repeat(501)]) {
      expect(ZBlockAccountRequestSchema.safeParse({ requestKey: KEY, reason }).success).toBe(false);
    }
    expect(ZBlockAccountRequestSchema.safeParse({ requestKey: KEY }).success).toBe(false);
    expect(ZStaffActionRequestSchema.safeParse({ requestKey: KEY }).success).toBe(true);
  });

  it('needs a UUID request key and refuses unknown fields', () => {
    expect(ZStaffActionRequestSchema.safeParse({ requestKey: 'abc' }).success).toBe(false);
    expect(ZStaffActionRequestSchema.safeParse({}).success).toBe(false);
    expect(ZStaffActionRequestSchema.safeParse({ requestKey: KEY, userId: 'x' }).success).toBe(
      false,
    );
  });

  it.each([0, -1, 1.5, STAFF_MAX_AMOUNT_CENTS + 1, '100'])(
    'refuses the amount %j',
    (amountCents) => {
      const refund = { requestKey: KEY, amountCents, reason: 'goodwill' };
      expect(ZRefundPaymentRequestSchema.safeParse(refund).success).toBe(false);
      const adjustment = { ...refund, kind: 'credit' };
      expect(ZBalanceAdjustmentRequestSchema.safeParse(adjustment).success).toBe(false);
    },
  );

  it('takes a credit or a charge, nothing else', () => {
    const base = { requestKey: KEY, amountCents: 100, reason: 'agreed on the phone' };
    expect(ZBalanceAdjustmentRequestSchema.safeParse({ ...base, kind: 'credit' }).success).toBe(
      true,
    );
    expect(ZBalanceAdjustmentRequestSchema.safeParse({ ...base, kind: 'charge' }).success).toBe(
      true,
    );
    expect(ZBalanceAdjustmentRequestSchema.safeParse({ ...base, kind: 'fee' }).success).toBe(false);
  });
});
