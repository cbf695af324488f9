import { defineConfig } from 'vitest/config';

// One Vitest run, four projects: the pure domain rules, the web app's units, the lint rules'
// proofs and the server's API tests (real app, real database). `npm test` runs them as separate steps.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'domain',
          include: ['packages/domain/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test-setup.ts'],
        },
      },
      {
        // The repository's own rules about code (lint configuration), proven by failing snippets.
        test: {
          name: 'tooling',
          include: ['tooling/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
