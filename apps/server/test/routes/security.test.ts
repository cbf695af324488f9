import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_RATE_LIMIT_PER_MINUTE } from '../../src/app.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';

describe('security headers and API conventions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: { TRUST_PROXY: 'true' },
      // A route that fails unexpectedly, as a bug would.
      routes: (app) =>
        app.get('/api/test/explode', { config: { access: 'public' } }, async () => {
          throw new Error('connection string postgres://admin:hunter2@db/secret leaked');
        }),
    });
  });
  afterAll(() => t.close());

  it('sends a strict CSP with a per-response nonce and the other headers on pages', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/home' });
    const second = await t.app.inject({ method: 'GET', url: '/home' });
    const csp = first.headers['content-security-policy'] as string;
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=_-]+'/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(second.headers['content-security-policy']).not.toBe(csp); // a new nonce every time
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(first.headers['strict-transport-security']).toBeUndefined(); // plain HTTP
    expect(first.headers['cache-control']).toBe('no-store'); // the page carries a CSRF token
  });

  it('takes a JSON write without a body as no body, and still refuses malformed JSON', async () => {
    const browser = await t.browser();
    const empty = await browser.request({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ data: { redirectTo: '/authlogout' } });
    const broken = await browser.request({
      method: 'POST',
      url: '/api/log',
      headers: { 'content-type': 'application/json' },
      payload: '{"message":',
    });
    expect(broken.statusCode).toBe(400);
    const poisoned = await browser.request({
      method: 'POST',
      url: '/api/log',
      headers: { 'content-type': 'application/json' },
      payload: '{"message":"x","url":"/","__proto__":{"admin":true}}',
    });
    expect(poisoned.statusCode).toBe(400);
  });

  it('lets Accept.js load and reach Authorize.Net when Authorize.Net is configured, and nothing else', async () => {
    const anet = await buildTestApp({
      env: {
        AUTHORIZE_NET_API_LOGIN_ID: 'login',
        AUTHORIZE_NET_TRANSACTION_KEY: 'transaction-key',
        AUTHORIZE_NET_CLIENT_KEY: 'client-key',
        AUTHORIZE_NET_ACCEPT_JS_URL: 'https://jstest.authorize.net/v1/Accept.js',
      },
    });
    try {
      const page = await anet.app.inject({ method: 'GET', url: '/home' });
      const csp = page.headers['content-security-policy'] as string;
      expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' https:\/\/jstest\.authorize\.net;/);
      expect(csp).toContain("connect-src 'self' https://apitest.authorize.net;");
      expect(page.body).not.toContain('transaction-key');
      expect(
        (await anet.app.inject({ method: 'POST', url: '/sandbox-gateway/v1/tokens' })).statusCode,
      ).toBe(404);
    } finally {
      await anet.close();
    }
    const sandbox = (await t.app.inject({ method: 'GET', url: '/home' })).headers[
      'content-security-policy'
    ] as string;
    expect(sandbox).not.toContain('authorize.net');
  });

  it('sends HSTS when the request came over HTTPS', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/home',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(response.headers['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    );
  });

  it('marks every API answer no-store', async () => {
    for (const url of ['/api/health', '/api/no-such-route', '/api/captcha/challenge']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('answers unknown API paths with JSON 404 and other paths with the app', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/users/nobody' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({
      statusCode: 404,
      code: 'NOT_FOUND',
      message: expect.any(String),
      errors: [],
    });
    const deleted = await t.app.inject({ method: 'DELETE', url: '/somewhere' });
    expect(deleted.statusCode).toBe(404); // only GET and HEAD get the app
    const page = await t.app.inject({ method: 'GET', url: '/any/client/route' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<meta name="csrf-token"');
    expect(page.body).toContain('<meta name="referrer-origin" content="http://localhost:3000">');
  });

  it('hides the internals of an unexpected failure and logs them with the request id', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test/explode' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      statusCode: 500,
      code: 'INTERNAL_SERVER_ERROR',
      message: expect.any(String),
      errors: [],
    });
    expect(response.body).not.toContain('hunter2');
    const logged = t.logs.find((line) => line.msg === 'unexpected failure');
    expect(logged?.reqId).toEqual(expect.any(String));
    expect(JSON.stringify(logged)).toContain('leaked');
  });

  it('logs a request id and the trace ids on every line of a request', async () => {
    await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: {
        'x-trace-page-id': 'web-page-42',
        'x-trace-session-id': 'web-session-7',
        'x-trace-user-id': 'web-user-9',
      },
    });
    const lines = t.logs.filter(
      (line) => (line.trace as { pageId?: string } | undefined)?.pageId === 'web-page-42',
    );
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line.reqId).toEqual(expect.any(String));
      expect(line.trace).toEqual({
        pageId: 'web-page-42',
        sessionId: 'web-session-7',
        userId: 'web-user-9',
      });
    }
  });

  it('applies the global rate limit to every route', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < GLOBAL_RATE_LIMIT_PER_MINUTE + 5; i++) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/no-such-route',
        remoteAddress: '10.9.9.9',
      });
      statuses.add(response.statusCode);
    }
    expect(statuses).toEqual(new Set([404, 429]));
    const limited = await t.app.inject({ method: 'GET', url: '/home', remoteAddress: '10.9.9.9' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    // Static files are never limited (a page load fetches many; staff share addresses).
    const asset = await t.app.inject({
      method: 'GET',
      url: '/robots.txt',
      remoteAddress: '10.9.9.9',
    });
    expect(asset.statusCode).not.toBe(429);
  });
});

describe('the development mailbox (DECISIONS R8)', () => {
  it('is never served by a production server, even with every sandbox allowed', async () => {
    const production = await buildTestApp({
      env: {
        APP_ENV: 'production',
        PUBLIC_URL: 'https://dealerpass.example',
        SECRET_KEY: 'a'.repeat(44),
        ALLOW_SANDBOX_IN_PRODUCTION: 'true',
      },
    });
    try {
      const response = await production.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
      expect(response.statusCode).toBe(404);
      const page = await production.app.inject({ method: 'GET', url: '/dev/mailbox' });
      expect(page.body).toContain('&quot;mailbox&quot;:false');
    } finally {
      await production.close();
    }
  });

  it('is served by a demo or development server', async () => {
    const development = await buildTestApp({ env: { APP_ENV: 'development' } });
    try {
      const response = await development.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
      expect(response.statusCode).toBe(200);
    } finally {
      await development.close();
    }
  });
});

describe('caching', () => {
  it('is no-store by default, immutable for hashed assets, whatever the spelling of the path', async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'dp-web-'));
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><head><!--app-head--></head>');
    writeFileSync(join(webRoot, 'assets', 'app-1a2b3c.js'), 'console.log(1)');
    const t = await buildTestApp({ webRoot });
    try {
      const asset = await t.app.inject({ method: 'GET', url: '/assets/app-1a2b3c.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      for (const url of ['/home', '/api/health', '/%61pi/health', '/api/nowhere', '/nowhere']) {
        const response = await t.app.inject({ method: 'GET', url });
        expect(response.headers['cache-control'], url).toBe('no-store');
      }
    } finally {
      await t.close();
      rmSync(webRoot, { recursive: true, force: true });
    }
  });
});
