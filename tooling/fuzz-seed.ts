import { execFileSync } from 'node:child_process';

/** When there is no commit to read (an exported tree): the same seed every run. */
const FIXED_SEED = 20_261_127;

/**
 * The seed of every fast-check property in a run (docs/decisions/033): FUZZ_SEED when set (to
 * replay a failure), otherwise the first 31 bits of the commit's hash. A commit's tests then
 * generate the same inputs wherever they run, so a red run replays with its own seed, and each
 * new commit explores new inputs.
 */
export function fuzzSeed(environment: NodeJS.ProcessEnv = process.env): number {
  if (environment.FUZZ_SEED) {
    const seed = Number(environment.FUZZ_SEED);
    if (!Number.isSafeInteger(seed))
      throw new Error(`FUZZ_SEED is not an integer: ${environment.FUZZ_SEED}`);
    return seed;
  }
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return Number.parseInt(head.slice(0, 8), 16) & 0x7fff_ffff;
  } catch {
    return FIXED_SEED;
  }
}
