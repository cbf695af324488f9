import { describe, expect, it } from 'vitest';
import { canonicalJson, requestContent } from './request-key.ts';

describe('what a request key stands for (decision 031)', () => {
  it('is the same for the same content in any field order, at any depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}',
    );
    expect(requestContent({ code: 'A', requestKey: 'k1', value: 1 })).toBe(
      requestContent({ value: 1, code: 'A', requestKey: 'k2' }),
    );
  });

  it('differs when anything but the key differs, and leaves out undefined fields', () => {
    expect(requestContent({ code: 'UXAAA', requestKey: 'k' })).not.toBe(
      requestContent({ code: 'UXBBB', requestKey: 'k' }),
    );
    expect(requestContent({ codes: ['NADA'], idempotencyKey: 'k' })).toBe('{"codes":["NADA"]}');
    expect(requestContent({ reason: undefined })).toBe('{}');
    expect(requestContent({ list: ['a', 'b'] })).not.toBe(requestContent({ list: ['b', 'a'] }));
  });
});
