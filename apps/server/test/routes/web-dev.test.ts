import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';

/**
 * `npm run dev` (docs/decisions/022): the server serves the web app from its sources through
 * Vite, and still writes the CSRF token and its meta tags into every page.
 */
describe('the development server (webDev)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({
      config: loadConfig({ APP_ENV: 'development', LOG_LEVEL: 'silent' }),
      database: await openDatabase({ dataDir: null }),
      secret: randomBytes(32),
      webRoot: null,
      webDev: true,
      backgroundIntervalMs: 0,
    });
    await app.ready();
  }, 60_000);
  afterAll(() => app.close());

  it('a page is index.html as Vite serves it, with the CSRF cookie and token and the HMR client', async () => {
    const page = await app.inject({ method: 'GET', url: '/home' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('src="/@vite/client"');
    expect(page.body).toContain('src="/src/main.tsx"');
    const token = /<meta name="csrf-token" content="([^"]+)">/.exec(page.body)?.[1];
    expect(token).toBeTruthy();
    expect(page.cookies.map((cookie) => cookie.name)).toContain('__Host-dp-csrf');
    // Every script, also React's inline refresh preamble, carries this response's nonce.
    const nonce = /'nonce-([^']+)'/.exec(String(page.headers['content-security-policy']))?.[1];
    const scripts = page.body.match(/<script[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(1);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
    expect(page.headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
  });

  it('Vite answers its own paths: modules from the sources, the HMR client, public files', async () => {
    const main = await app.inject({ method: 'GET', url: '/src/main.tsx' });
    expect(main.statusCode).toBe(200);
    expect(main.headers['content-type']).toMatch(/javascript/);
    expect(main.body).toContain('createRoot');
    expect((await app.inject({ method: 'GET', url: '/@vite/client' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/robots.txt' })).statusCode).toBe(200);
  });

  it('the API and the server’s own paths are the server’s', async () => {
    const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.json()).toEqual({ status: 'ready' });
    const login = await app.inject({ method: 'GET', url: '/login' });
    expect(login.statusCode).toBe(303);
    expect(login.headers.location).toMatch(/\/oidc\/auth\?/);
  });
});
