import { describe, expect, it } from 'vitest';
import {
  STAFF_REQUEST_MESSAGES,
  ZAccountSearchQuerySchema,
  ZAuditExportQuerySchema,
  ZContactReplyRequestSchema,
  ZCreatePromotionRequestSchema,
  ZDisablePromotionRequestSchema,
} from './console-requests.ts';

const KEY = '4b1d6c1e-2f0a-4c55-9a7e-1f2e3d4c5b6a';

describe('the console’s request schemas (R12)', () => {
  it('a search is 2 to 100 characters once trimmed', () => {
    expect(ZAccountSearchQuerySchema.parse({ q: '  ab ' })).toEqual({ q: 'ab' });
    for (const q of ['', ' a ', 'x'.repeat(101)]) {
      const result = ZAccountSearchQuerySchema.safeParse({ q });
      expect(result.success, q).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(STAFF_REQUEST_MESSAGES.searchText);
    }
  });

  it('a promotion code is stored upper-case, and its value must suit its kind', () => {
    const base = { description: '', requiresCard: false, requestKey: KEY };
    expect(
      ZCreatePromotionRequestSchema.parse({
        ...base,
        code: ' spring-25 ',
        kind: 'percent_off',
        value: 25,
      }).code,
    ).toBe('SPRING-25');
    for (const [kind, value, ok] of [
      ['percent_off', 100, true],
      ['percent_off', 101, false],
      ['amount_off', 1, true],
      ['amount_off', 0, false],
      ['free_months', 12, true],
      ['free_months', 13, false],
    ] as const) {
      const result = ZCreatePromotionRequestSchema.safeParse({ ...base, code: 'X1', kind, value });
      expect(result.success, `${kind} ${value}`).toBe(ok);
    }
    expect(
      ZCreatePromotionRequestSchema.safeParse({
        ...base,
        code: 'X1',
        kind: 'amount_off',
        value: 1,
        extra: 1,
      }).success,
    ).toBe(false);
  });

  it('a reason is 3 to 500 characters once trimmed; a request key is a UUID', () => {
    expect(
      ZDisablePromotionRequestSchema.parse({ reason: '  abc  ', requestKey: KEY }).reason,
    ).toBe('abc');
    expect(
      ZDisablePromotionRequestSchema.safeParse({ reason: ' ab ', requestKey: KEY }).success,
    ).toBe(false);
    expect(
      ZDisablePromotionRequestSchema.safeParse({ reason: 'x'.repeat(501), requestKey: KEY })
        .success,
    ).toBe(false);
    expect(
      ZDisablePromotionRequestSchema.safeParse({ reason: 'abc', requestKey: 'k' }).success,
    ).toBe(false);
  });

  it('a reply is 1 to 5000 characters once trimmed', () => {
    expect(ZContactReplyRequestSchema.safeParse({ body: ' \n ', requestKey: KEY }).success).toBe(
      false,
    );
    expect(
      ZContactReplyRequestSchema.safeParse({ body: 'x'.repeat(5000), requestKey: KEY }).success,
    ).toBe(true);
    expect(
      ZContactReplyRequestSchema.safeParse({ body: 'x'.repeat(5001), requestKey: KEY }).success,
    ).toBe(false);
  });

  it('an export window takes real ISO 8601 instants only', () => {
    expect(ZAuditExportQuerySchema.safeParse({ from: '2026-01-01T00:00:00Z' }).success).toBe(true);
    expect(ZAuditExportQuerySchema.safeParse({ from: '2026-01-01T00:00:00+01:00' }).success).toBe(
      true,
    );
    expect(ZAuditExportQuerySchema.safeParse({ to: '9999-12-31T23:59:59Z' }).success).toBe(true);
    expect(ZAuditExportQuerySchema.safeParse({ from: '1970-01-01T00:00:00Z' }).success).toBe(true);
    for (const from of [
      '2026-01-01',
      'yesterday',
      '2026-02-30T00:00:00Z',
      '2026-01-01T00:00:00+99:99',
      // Outside what the database compares: no year 0, nothing past 9999.
      '0000-01-01T00:00:00Z',
      '0001-01-01T00:00:00+14:00',
      '9999-12-31T23:59:59-14:00',
      '1969-12-31T23:59:59Z',
    ])
      expect(ZAuditExportQuerySchema.safeParse({ from }).success, from).toBe(false);
  });
});
