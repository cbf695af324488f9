import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { FIRST_PORT, WORKERS, serverUrl } from './servers.ts';

/**
 * Browser tests: Debian's Chromium (never a downloaded browser) against the real server, built web
 * app and a fresh embedded database in a temporary data folder. Two workers, each with a server
 * and database of its own (servers.ts; the tests' `baseURL` is their worker's, fixtures.ts).
 * With E2E_DATABASE_URL each server gets a fresh PostgreSQL database instead (start-server.ts).
 */
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'dealerpass-e2e-'));
process.env.E2E_DATA_DIR = dataDir; // workers re-read this config; they must reuse the same folder

export default defineConfig({
  testDir: './tests',
  outputDir: '../test-results',
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  // Assertions wait 10 s, not 5: the browser tests share the processor with the API tests beside
  // them (tooling/test-all.ts, docs/decisions/033), and Swagger UI's first render alone took
  // more than 5 s there.
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: serverUrl(0),
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: Array.from({ length: WORKERS }, (_, index) => ({
    command: 'node e2e/start-server.ts',
    cwd: '..',
    url: `${serverUrl(index)}/api/health`,
    reuseExistingServer: false,
    // Stopped as a deployment stops it, so a PostgreSQL run drops its database (start-server.ts).
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
    // A limit for a server that never comes up: on two busy cores a fresh embedded database's
    // migrations and demo data took over a minute once.
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      APP_ENV: 'test',
      PORT: String(FIRST_PORT + index),
      HOST: 'localhost',
      DATA_DIR: join(dataDir, `worker-${index}`),
      LOG_LEVEL: 'warn',
      CAPTCHA_DIFFICULTY: '5000',
      SEED_DEMO_DATA: 'true',
      // As behind a balancer: a spec whose browser stands for another person (the dealer a
      // staff test signs up, a visitor) sends its own client address (admin-steps.ts), so the
      // per-address limits, kept as they are, count that person apart from the suite's other
      // sign-ups and messages.
      // The browsers connect over loopback; their header is believed as a balancer's would be
      // (docs/decisions/030: `true` is for no deployment).
      TRUST_PROXY: 'loopback',
      DATABASE_URL: '',
      SMTP_URL: '',
    },
  })),
});
