import { defineConfig } from '@playwright/test';
import { PUBLIC_URL } from './cluster.ts';

// The shared fixtures' pages go to the balancer, not to a worker's own server (e2e/servers.ts).
process.env.E2E_BASE_URL = PUBLIC_URL;

/**
 * The multi-instance test (R13, `npm run test:multi`): three built instances on one PostgreSQL
 * and one Redis behind HAProxy, started by global-setup.ts; Debian's Chromium drives the journey
 * through the balancer. Needs PostgreSQL and Redis on this machine and HAProxy installed
 * (.ci/run installs it and runs this where both answer).
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../../test-results/multi-instance/output',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 240_000,
  reporter: [['list']],
  use: {
    baseURL: PUBLIC_URL,
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
});
