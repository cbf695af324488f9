import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('answers 503 when the database is gone', async () => {
    const local = await buildTestApp();
    await local.app.database.close();
    const response = await local.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json().database.status).toBe('down');
    await local.app.close().catch(() => {});
  });
});
