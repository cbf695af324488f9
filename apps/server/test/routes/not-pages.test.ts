import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_ROUTE, STATIC_ROUTE, UNMATCHED_ROUTE } from '../../src/plugins/metrics.ts';
import { isPagePath } from '../../src/plugins/web-app.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';

/**
 * Issue 27, items 5 and 6: `/metrics` as Prometheus's own checker reads it, with one series per
 * route pattern however many files a build has; and paths that are no page answer 404 rather
 * than the web app's page.
 */

const promtool = spawnSync('promtool', ['--version']).status === 0;

/** A built web app in a temporary folder: the page, two hashed assets and a public file. */
function fakeBuild(): string {
  const webRoot = mkdtempSync(join(tmpdir(), 'dp-web-'));
  mkdirSync(join(webRoot, 'assets'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><head><!--app-head--></head>');
  writeFileSync(join(webRoot, 'assets', 'account-CBVrOm_y.js'), 'console.log(1)');
  writeFileSync(join(webRoot, 'assets', 'home-Dx81kQ_a.css'), 'body{margin:0}');
  writeFileSync(join(webRoot, 'robots.txt'), 'User-agent: *\n');
  return webRoot;
}

/** Every value the `route` label has in a scrape. */
function routeLabels(text: string): Set<string> {
  return new Set([...text.matchAll(/route="([^"]*)"/g)].map((match) => match[1]!));
}

describe('/metrics and the route label (item 5)', () => {
  let t: TestApp;
  let webRoot: string;
  beforeAll(async () => {
    webRoot = fakeBuild();
    t = await buildTestApp({ webRoot });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  async function loadEverything() {
    for (const url of [
      '/assets/account-CBVrOm_y.js',
      '/assets/home-Dx81kQ_a.css',
      '/robots.txt',
      '/home',
      '/account/profile',
      '/no-such-page',
      '/favicon.ico',
      '/.well-known/openid-configuration',
      '/api/no/such/thing',
      '/api/health',
    ]) {
      await t.app.inject({ method: 'GET', url });
    }
  }

  it('labels static files, the page fallback and unmatched paths with one fixed value each', async () => {
    await loadEverything();
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const labels = routeLabels(text);
    expect(labels).toContain(STATIC_ROUTE);
    expect(labels).toContain(PAGE_ROUTE);
    expect(labels).toContain(UNMATCHED_ROUTE);
    expect(labels).toContain('/api/health');
    for (const label of labels) {
      expect(label, label).not.toMatch(
        /assets|robots|favicon|no-such|profile|\.well-known\/openid/,
      );
    }
    const count = (route: string, status: number) =>
      Number(
        new RegExp(
          `^http_request_duration_seconds_count\\{method="GET",route="${route.replace(/[()]/g, '\\$&')}",status_code="${status}"\\} (\\d+)$`,
          'm',
        ).exec(text)?.[1] ?? 0,
      );
    expect(count(STATIC_ROUTE, 200)).toBe(3);
    expect(count(PAGE_ROUTE, 200)).toBe(3);
    expect(count(UNMATCHED_ROUTE, 404)).toBe(3);
  });

  it('passes `promtool check metrics`', async () => {
    await loadEverything();
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    // prom-client's misnamed defaults are left out; their per-type gauges stay.
    expect(text).not.toMatch(/^nodejs_active_\w+_total/m);
    expect(text).toContain('# TYPE nodejs_active_handles gauge');
    if (!promtool) {
      console.warn(
        'promtool is not installed (Debian: apt-get install prometheus): the scrape was not checked by it',
      );
      return;
    }
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(`${check.stdout}${check.stderr}`).toBe('');
    expect(check.status).toBe(0);
  });
});

describe('paths that are no page (item 6)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers 404 in the error envelope for files, /.well-known/* and /api/*', async () => {
    for (const url of [
      '/favicon.ico',
      '/wp-login.php',
      '/account/profile.json',
      '/.well-known/openid-configuration',
      '/.well-known/change-password',
      '/%2Ewell-known/openid-configuration',
      '/api/no-such-thing',
      '/assets/old-chunk-1a2b3c.js',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
      expect(response.json(), url).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    }
  });

  it('keeps the page for the web app’s own paths, known or not (001 §2: the app sends them on)', async () => {
    for (const url of ['/home', '/no-such-page', '/account/whatever', '/signup/x?y=1.5']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
    }
    expect(isPagePath('/admin/accounts/3f1c')).toBe(true);
    expect(isPagePath('/oidc/interaction/abc-DEF_1')).toBe(true);
    expect(isPagePath('/robots.txt')).toBe(false);
  });

  it('serves /.well-known/security.txt (RFC 9116) from the configuration', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/security.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const fields = response.body.trim().split('\n');
    expect(fields).toContain('Contact: mailto:support@dealerpass.example');
    expect(fields).toContain('Preferred-Languages: en');
    expect(fields).toContain('Canonical: http://localhost:3000/.well-known/security.txt');
    const expires = fields.find((line) => line.startsWith('Expires: '))!.slice('Expires: '.length);
    // RFC 9116 §2.5.5: an RFC 3339 time, less than a year ahead.
    expect(expires).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const ahead = Date.parse(expires) - Date.now();
    expect(ahead).toBeGreaterThan(0);
    expect(ahead).toBeLessThan(365 * 86_400_000);

    const configured = await buildTestApp({
      env: {
        PUBLIC_URL: 'https://dealerpass.example',
        SECURITY_CONTACT: 'mailto:security@dealerpass.example, https://dealerpass.example/security',
        SECURITY_TXT_EXPIRES: '2027-06-30T00:00:00Z',
        SECURITY_TXT_LANGUAGES: 'en,es',
      },
    });
    try {
      const body = (
        await configured.app.inject({ method: 'GET', url: '/.well-known/security.txt' })
      ).body;
      expect(body).toBe(
        [
          'Contact: mailto:security@dealerpass.example',
          'Contact: https://dealerpass.example/security',
          'Expires: 2027-06-30T00:00:00.000Z',
          'Preferred-Languages: en, es',
          'Canonical: https://dealerpass.example/.well-known/security.txt',
          '',
        ].join('\n'),
      );
    } finally {
      await configured.close();
    }
    await expect(
      buildTestApp({ env: { SECURITY_CONTACT: 'security@example.com' } }),
    ).rejects.toThrow(/SECURITY_CONTACT/);
  });

  it('answers 404 at /metrics on a production server without METRICS_TOKEN', async () => {
    const production = await buildTestApp({
      env: {
        APP_ENV: 'production',
        SECRET_KEY: randomBytes(32).toString('base64'),
        PUBLIC_URL: 'https://dealerpass.example',
        ALLOW_SANDBOX_IN_PRODUCTION: 'true',
      },
    });
    try {
      const response = await production.app.inject({ method: 'GET', url: '/metrics' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await production.close();
    }
  });
});
