import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { MIGRATIONS_FOLDER, pendingMigrations, shippedMigrations } from '../../src/db/migrate.ts';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../../..', import.meta.url));
const adminUrl = process.env.TEST_DATABASE_URL;

/**
 * R13: migrations run under a database lock, so instances may start together, and a deployment
 * may migrate first with `npm run db:migrate`. PostgreSQL only (PGlite is one process per data
 * folder): these run in the PostgreSQL pass of the API tests (.ci/run).
 */
describe('the readiness check’s view of migrations', () => {
  it('the journal lists every migration file, and a fresh embedded database has none pending', async () => {
    const files = readdirSync(MIGRATIONS_FOLDER).filter((name) => name.endsWith('.sql'));
    expect(shippedMigrations().map((entry) => `${entry.tag}.sql`)).toEqual(files.sort());
    const database = await openDatabase({ dataDir: null });
    try {
      expect(await pendingMigrations(database.db)).toBe(0);
    } finally {
      await database.close();
    }
  });
});

// Registered only in the PostgreSQL pass, as the repository's other PostgreSQL-only tests are.
if (adminUrl)
  describe('migrations on PostgreSQL (R13)', () => {
    const created: string[] = [];
    async function emptyDatabase(): Promise<string> {
      const name = `dp_test_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      created.push(name);
      const url = new URL(adminUrl!);
      url.pathname = `/${name}`;
      return url.toString();
    }
    async function appliedMigrations(url: string): Promise<{ hash: string; created_at: string }[]> {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (
          await client.query<{ hash: string; created_at: string }>(
            'select hash, created_at from drizzle.__drizzle_migrations order by id',
          )
        ).rows;
      } finally {
        await client.end();
      }
    }
    afterAll(async () => {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      for (const name of created) await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    });

    it('five instances starting at once on an empty database all come up; each migration is applied once', async () => {
      const url = await emptyDatabase();
      const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: url });
      // Five instances, each with its own pool, as five processes would have; one SECRET_KEY, as
      // every instance of one deployment has.
      const secret = randomBytes(32);
      const started = await Promise.allSettled(
        Array.from({ length: 5 }, async () => {
          const database = await openDatabase({ databaseUrl: url, onConnectionError: () => {} });
          return buildApp({
            config,
            database,
            secret,
            webRoot: null,
            backgroundIntervalMs: 0,
          });
        }),
      );
      const apps = started.flatMap((result) =>
        result.status === 'fulfilled' ? [result.value] : [],
      );
      try {
        expect(started.filter((result) => result.status === 'rejected')).toEqual([]);
        for (const app of apps) {
          const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
          expect(ready.json()).toEqual({ status: 'ready' });
        }
        const applied = await appliedMigrations(url);
        const shipped = shippedMigrations();
        expect(applied.map((row) => Number(row.created_at))).toEqual(shipped.map((m) => m.when));
        expect(new Set(applied.map((row) => row.hash)).size).toBe(shipped.length);
      } finally {
        await Promise.all(apps.map((app) => app.close()));
      }
    });

    it('`npm run db:migrate` migrates an empty database and exits; run again, it changes nothing', async () => {
      const url = await emptyDatabase();
      const env = { ...process.env, DATABASE_URL: url, APP_ENV: 'test' };
      const script = ['apps/server/scripts/migrate.ts', '--no-env-file'];
      const first = await run(process.execPath, script, { cwd: REPO, env });
      expect(first.stdout).toMatch(/database migrated \(postgres, \d+ migrations/);
      const once = await appliedMigrations(url);
      expect(once).toHaveLength(shippedMigrations().length);
      await run(process.execPath, script, { cwd: REPO, env });
      expect(await appliedMigrations(url)).toEqual(once);
    });
  });
