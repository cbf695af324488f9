import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../src/db/client.ts';
import { shippedMigrations } from '../../src/db/migrate.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';

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

describe('GET /api/health/live and /api/health/ready (R13: the load balancer’s checks)', () => {
  it('live answers without the database; ready needs the database', async () => {
    const local = await buildTestApp();
    try {
      const ready = await local.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });
      await local.app.database.close();
      const live = await local.app.inject({ method: 'GET', url: '/api/health/live' });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok' });
      const down = await local.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: 'database-down' });
    } finally {
      await local.app.close().catch(() => {});
    }
  });

  it('ready answers 503 while a migration this build ships is not applied', async () => {
    const local = await buildTestApp();
    try {
      const newest = shippedMigrations().at(-1)!;
      await local.app.db.execute(
        sql`delete from drizzle.__drizzle_migrations where created_at = ${newest.when}`,
      );
      const response = await local.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'migrations-pending', pending: 1 });
      expect((await local.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(
        200,
      );
    } finally {
      await local.close();
    }
  });

  it('ready stops answering 200 once the server begins to close, while a request is still in flight', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    const local = await buildTestApp({
      routes: (app) =>
        app.get('/api/test-slow', { config: { access: 'public' } }, async () => {
          entered();
          await held;
          return { done: true };
        }),
    });
    const address = await local.app.listen({ host: '127.0.0.1', port: 0 });
    expect((await fetch(`${address}/api/health/ready`)).status).toBe(200);
    // Its own connection, closed after the answer (no keep-alive to hold the close open).
    const slow = new Promise<number>((resolve, reject) =>
      get(`${address}/api/test-slow`, { agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      }).on('error', reject),
    );
    await inFlight;
    const closed = local.close();
    await new Promise((resolve) => setTimeout(resolve, 100)); // the close has begun
    // A balancer's check now finds no instance to send traffic to: refused, or 503.
    const check = await fetch(`${address}/api/health/ready`).then(
      (response) => response.status,
      (error: Error) => (error.cause as { code?: string } | undefined)?.code ?? error.message,
    );
    expect([503, 'ECONNREFUSED']).toContain(check);
    release();
    expect(await slow).toBe(200); // the request in flight still completes
    await closed;
  });
});
