import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminQuery } from '../apps/server/test/support/admin-query.ts';
import { writeTestAccountsFile } from './fixtures/test-accounts-file.ts';

/**
 * One browser-test server (playwright.config.ts starts one per worker). On the embedded database
 * by default. With E2E_DATABASE_URL (a PostgreSQL server where databases may be created), the
 * server gets a fresh database of its own on it, `dp_e2e_<port>`, dropped when it stops: the same
 * browser tests against the other database the product supports. The tests' own accounts and
 * staff (fixtures/accounts.ts) are seeded from a file written into the server's data folder.
 */

const REPO = fileURLToPath(new URL('..', import.meta.url));
const adminUrl = process.env.E2E_DATABASE_URL;
const env = { ...process.env };
let databaseName: string | null = null;

const withAdmin = (statement: string) => adminQuery(adminUrl!, statement);

if (adminUrl) {
  databaseName = `dp_e2e_${Number(process.env.PORT)}`;
  await withAdmin(`drop database if exists ${databaseName} with (force)`);
  await withAdmin(`create database ${databaseName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  env.DATABASE_URL = url.toString();
}

// Beside the embedded database (or the secret, on PostgreSQL): the folder is the server's alone.
const dataDir = resolve(REPO, env.DATA_DIR ?? 'data');
mkdirSync(dataDir, { recursive: true });
env.TEST_ACCOUNTS_FILE = writeTestAccountsFile(dataDir);

const server = spawn(process.execPath, ['apps/server/src/main.ts', '--no-env-file'], {
  cwd: REPO,
  env,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => {
  const done = () => process.exit(code ?? (signal ? 1 : 0));
  if (!databaseName) return done();
  withAdmin(`drop database if exists ${databaseName} with (force)`).then(done, done);
});
