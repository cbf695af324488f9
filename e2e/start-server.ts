import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { adminQuery } from '../apps/server/test/support/admin-query.ts';

/**
 * One browser-test server (playwright.config.ts starts one per worker). On the embedded database
 * by default. With E2E_DATABASE_URL (a PostgreSQL server where databases may be created), the
 * server gets a fresh database of its own on it, `dp_e2e_<port>`, dropped when it stops: the same
 * browser tests against the other database the product supports.
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
