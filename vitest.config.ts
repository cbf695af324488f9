import { globSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { fuzzSeed } from './tooling/fuzz-seed.ts';
import { PGLITE_SMOKE } from './apps/server/test/support/pglite-smoke.ts';

/** One seed per commit for every fast-check property (docs/decisions/033); FUZZ_SEED replays one. */
const seed = { FUZZ_SEED: String(fuzzSeed()) };

/**
 * The test files under `glob` that need modules of their own: those that replace a module
 * (`vi.mock`) or say `vitest-isolate` (with why), found by reading them, so there is no list.
 */
const isolatedFiles = (glob: string) =>
  globSync(glob, { cwd: import.meta.dirname }).filter((file) =>
    /\bvi\.mock\(|vitest-isolate/.test(readFileSync(file, 'utf8')),
  );

/**
 * The web app's unit tests share one jsdom and one module cache per worker (`isolate: false`):
 * setting up jsdom and importing React for each of ~55 files was most of the unit stage's time
 * (docs/decisions/057). A file that replaces a module (`vi.mock`) or tests what a module does when
 * it is first imported (the comment `vitest-isolate` says so, with why) needs modules of its own,
 * so those files run isolated, found by reading them: no list to keep.
 */
const WEB_TESTS = 'apps/web/src/**/*.test.{ts,tsx}';
const webIsolated = isolatedFiles(WEB_TESTS);

/**
 * The API tests, as the server's project sees them: every file under apps/server/test, so a new
 * one is run without a list to edit. Each file gets a copy of one database migrated per run
 * (apps/server/test/support/global-setup.ts, docs/decisions/033), and builds its own app; the
 * files of a worker share one module cache (`isolate: false`), as the web app's do (decision
 * 057), so the server's modules are imported once per worker instead of once per file. A file
 * that replaces a module (`vi.mock`) or says `vitest-isolate` runs in `server-isolated`.
 */
const SERVER_TESTS = 'apps/server/test/**/*.test.ts';
const serverIsolated = isolatedFiles(SERVER_TESTS);
const server = {
  include: [SERVER_TESTS],
  environment: 'node' as const,
  // Limits that catch a hang, not a slow run: the files run three at a time beside lint, types
  // and the unit tests on two cores, where a sweep of hundreds of requests took 31 s once.
  testTimeout: 120_000,
  hookTimeout: 120_000,
  globalSetup: ['apps/server/test/support/global-setup.ts'],
  setupFiles: ['tooling/fuzz-seed-setup.ts'],
  env: seed,
};

// One Vitest run, five projects: the pure domain rules, the web app's units, the lint rules'
// proofs, the server's API tests (real app, real database: PostgreSQL with TEST_DATABASE_URL,
// PGlite without) and the embedded database's smoke set (PGlite always; run beside a PostgreSQL
// pass). `npm test` (tooling/test-all.ts) runs them as separate steps.
export default defineConfig({
  test: {
    // Test files in parallel: the API files wait on their database more than on the processor,
    // so three share this machine's two cores (docs/decisions/033). VITEST_MAX_WORKERS overrides.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 3),
    projects: [
      {
        test: {
          name: 'domain',
          isolate: false,
          include: ['packages/domain/src/**/*.test.ts'],
          environment: 'node',
          // Property tests beside the other stages on two cores: a limit for hangs, not speed.
          testTimeout: 30_000,
          setupFiles: ['tooling/fuzz-seed-setup.ts'],
          env: seed,
        },
      },
      {
        test: {
          name: 'web',
          include: [WEB_TESTS],
          exclude: webIsolated,
          isolate: false,
          environment: 'jsdom',
          // Typed input in jsdom beside the other stages on two cores: a limit for hangs.
          testTimeout: 30_000,
          setupFiles: ['apps/web/src/test-setup.ts'],
        },
      },
      {
        test: {
          name: 'web-isolated',
          include: webIsolated,
          environment: 'jsdom',
          testTimeout: 30_000,
          setupFiles: ['apps/web/src/test-setup.ts'],
        },
      },
      {
        // The repository's own rules about code (lint configuration), proven by failing snippets.
        test: {
          name: 'tooling',
          include: ['tooling/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tooling/fuzz-seed-setup.ts'],
          env: seed,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'server', ...server, exclude: serverIsolated, isolate: false } },
      { test: { name: 'server-isolated', ...server, include: serverIsolated } },
      {
        // The embedded default proven on its own engine while the whole suite runs on PostgreSQL:
        // migrations, sign-up, a billing run, a receipt and the sweeps' first pass.
        test: {
          name: 'server-pglite',
          ...server,
          include: PGLITE_SMOKE,
          env: { ...seed, TEST_DATABASE_URL: '', FUZZ_RUNS: process.env.FUZZ_RUNS ?? '20' },
        },
      },
    ],
    coverage: {
      provider: 'v8',
      include: ['packages/domain/src/**/*.ts'],
      exclude: ['packages/domain/src/**/*.test.ts'],
      reporter: ['text-summary'],
      thresholds: { lines: 95 },
    },
  },
});
