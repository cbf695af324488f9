import fc from 'fast-check';
import { beforeEach } from 'vitest';

/**
 * Every fast-check property of the test file runs from the run's seed (vitest.config.ts,
 * docs/decisions/033); a property that names its own seed keeps it. FUZZ_RUNS, when set, is the
 * run count of the properties that name none (`npm run test:fuzz`).
 */
const seed = Number(process.env.FUZZ_SEED);
fc.configureGlobal({
  seed,
  ...(process.env.FUZZ_RUNS ? { numRuns: Number(process.env.FUZZ_RUNS) } : {}),
});

// A failed test says how to replay it: the same commit's seed, or this one by hand.
beforeEach(({ onTestFailed, task }) => {
  onTestFailed(() => {
    console.error(
      `fast-check seed of this run: ${seed}. Replay: FUZZ_SEED=${seed} npx vitest run ${task.file.name}`,
    );
  });
});
