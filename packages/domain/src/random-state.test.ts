import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { STATE_PATTERN, isValidState, randomState } from './random-state.ts';

describe('random state (000 §4, 001 §9: 64 characters, base 36)', () => {
  it('property: 64 base-36 characters from any byte source', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), (seed) => {
        let i = 0;
        const source = (n: number) =>
          Uint8Array.from({ length: n }, () => seed[i++ % seed.length] ?? 0);
        const bytesAllHigh = [...seed].every((b) => b >= 252);
        if (bytesAllHigh) return;
        const state = randomState(source);
        expect(state).toMatch(STATE_PATTERN);
        expect(isValidState(state)).toBe(true);
      }),
    );
  });

  it('maps bytes without bias and drops bytes ≥ 252', () => {
    const source = (n: number) =>
      Uint8Array.from({ length: n }, (_, k) => (k % 2 === 0 ? 255 : 35));
    expect(randomState(source)).toBe('z'.repeat(64));
    expect(isValidState('A'.repeat(64))).toBe(false);
    expect(isValidState(42)).toBe(false);
  });

  it('refuses an empty source', () => {
    expect(() => randomState(() => new Uint8Array(0))).toThrow(RangeError);
  });
});
