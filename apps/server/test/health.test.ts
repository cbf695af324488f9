import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.ts';
import { buildTestApp, type TestApp } from './helper.ts';

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('reports the database as up', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe('ok');
    expect(body.database.status).toBe('up');
    expect(['pglite', 'postgres']).toContain(body.database.engine);
  });

  // PostgreSQL only (CI runs the API tests against it too): PGlite has no connections to lose.
  if (process.env.TEST_DATABASE_URL) {
    it('survives a pooled connection terminated under it (a restart, a failover)', async () => {
      const errors: string[] = [];
      const database = await openDatabase({
        databaseUrl: t.databaseUrl!,
        onConnectionError: (e) => errors.push(e.message),
      });
      try {
        await database.ping();
        const killer = await openDatabase({
          databaseUrl: t.databaseUrl!,
          onConnectionError: () => {},
        });
        await killer.db.execute(
          sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and application_name = ''`,
        );
        await killer.close();
        await new Promise((resolve) => setTimeout(resolve, 200));
        await database.ping(); // a fresh connection, no crash
        expect(errors.length).toBeGreaterThan(0);
      } finally {
        await database.close();
      }
    });
  }

  it('answers 503 when the database is gone', async () => {
    const local = await buildTestApp();
    await local.app.database.close();
    const response = await local.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json().database.status).toBe('down');
    await local.app.close().catch(() => {});
  });
});
