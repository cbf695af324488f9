import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { useRequestKey } from './use-request-key.ts';

const refusal = (status: number, code: string) => new ApiError(status, { code, message: code });

describe('useRequestKey (decision 031: one intent, one key)', () => {
  it('keeps the key for the same content in any field order, makes one for other content', () => {
    const { result } = renderHook(() => useRequestKey());
    const keys = result.current;
    const first = keys.keyFor({ code: 'UXAAA', value: 10 });
    expect(keys.keyFor({ value: 10, code: 'UXAAA', requestKey: 'ignored' })).toBe(first);
    const second = keys.keyFor({ code: 'UXBBB', value: 10 });
    expect(second).not.toBe(first);
    // Back to the first content: that is other content than the last sent, a new request.
    expect(keys.keyFor({ code: 'UXAAA', value: 10 })).not.toBe(first);
  });

  it('after a success, or a failure kept as the key’s answer, the same content is a new request', () => {
    const { result } = renderHook(() => useRequestKey());
    const keys = result.current;
    for (const outcome of [
      { data: {} },
      refusal(402, 'CHANGE_DECLINED'),
      refusal(502, 'REFUND_FAILED'),
    ]) {
      const before = keys.keyFor({ amountCents: 100 });
      keys.settle(outcome);
      expect(keys.keyFor({ amountCents: 100 })).not.toBe(before);
    }
  });

  it('after no answer, a refusal, or a request still running, the same content keeps its key', () => {
    const { result } = renderHook(() => useRequestKey());
    const keys = result.current;
    const key = keys.keyFor({ amountCents: 100 });
    for (const outcome of [
      new TypeError('Failed to fetch'),
      refusal(500, 'INTERNAL'),
      refusal(409, 'ACTION_IN_PROGRESS'),
      refusal(409, 'ACTION_NOT_ALLOWED'),
      refusal(400, 'VALIDATION_FAILED'),
    ]) {
      keys.settle(outcome);
      expect(keys.keyFor({ amountCents: 100 })).toBe(key);
    }
  });
});
