import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzSeed } from './fuzz-seed.ts';

/** The properties' seed (docs/decisions/033): from the commit, or FUZZ_SEED to replay a failure. */
describe('the fuzz seed', () => {
  it('is the commit’s, the same on every call, and FUZZ_SEED replaces it', () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' });
    expect(fuzzSeed({})).toBe(Number.parseInt(head.slice(0, 8), 16) & 0x7fff_ffff);
    expect(fuzzSeed({})).toBe(fuzzSeed({}));
    expect(fuzzSeed({ FUZZ_SEED: '1234567' })).toBe(1_234_567);
    expect(() => fuzzSeed({ FUZZ_SEED: 'abc' })).toThrow('FUZZ_SEED is not an integer: abc');
  });

  it('is every property’s in this run, so a failure replays with it', () => {
    // The setup file configured fast-check with the run's seed (vitest.config.ts).
    expect(fc.readConfigureGlobal().seed).toBe(Number(process.env.FUZZ_SEED));
    const draws = () => fc.sample(fc.string(), { numRuns: 20 });
    expect(draws()).toEqual(draws());
    const seen: string[] = [];
    const failure = fc.check(
      fc.property(fc.integer(), (value) => {
        seen.push(String(value));
        return value < 1_000;
      }),
    );
    expect(failure.failed).toBe(true);
    expect(failure.seed).toBe(Number(process.env.FUZZ_SEED));
    const replayed = fc.check(
      fc.property(fc.integer(), (value) => value < 1_000),
      { seed: failure.seed, path: failure.counterexamplePath ?? '' },
    );
    expect(replayed.counterexample).toEqual(failure.counterexample);
  });
});
