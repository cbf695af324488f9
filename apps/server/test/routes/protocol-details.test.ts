import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/lib/totp.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { staffSessionFor } from '../factories/staff-sign-in.ts';

/**
 * Issue 27, item 9: what independent clients read from our answers. The staff enrolment URI as
 * the Key Uri Format spells it, RFC 6750's error code on a wrong metrics token, the
 * Permissions-Policy header, and Clear-Site-Data where a sign-out ends.
 */
const CLEARED = '"cache", "cookies", "storage"';

const oathtool = spawnSync('oathtool', ['--version']).status === 0;

describe('the staff enrolment URI (Key Uri Format)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('percent-encodes the issuer (%20, never +), equal in the label and the parameter, and gives the codes we accept', async () => {
    const { cookie } = await staffSessionFor(t, 'support', { secondFactor: false });
    const browser = await t.browser();
    const enrolment = await browser.request({
      method: 'POST',
      url: '/api/admin/session/enrolment',
      headers: { cookie: `${browser.cookie}; ${cookie}` },
      payload: {},
    });
    expect(enrolment.statusCode).toBe(200);
    const { secret, otpauthUri } = enrolment.json().data as { secret: string; otpauthUri: string };
    expect(otpauthUri).not.toContain('+');
    const match = /^otpauth:\/\/totp\/([^:?]+):([^?]+)\?(.*)$/.exec(otpauthUri);
    expect(match, otpauthUri).not.toBeNull();
    const [, labelIssuer, account, query] = match!;
    expect(labelIssuer).toBe('DealerPass%20console');
    expect(decodeURIComponent(account!)).toMatch(/@/);
    const parameters = new Map(
      query!.split('&').map((pair) => pair.split('=') as [string, string]),
    );
    expect(parameters.get('issuer')).toBe(labelIssuer);
    expect(parameters.get('secret')).toBe(secret);
    expect(parameters.get('algorithm')).toBe('SHA1');
    expect(parameters.get('digits')).toBe('6');
    expect(parameters.get('period')).toBe('30');
    if (!oathtool) {
      console.warn('oathtool is not installed: the code was not compared with an independent one');
      return;
    }
    // An independent authenticator reading the same secret gives the code we accept.
    const now = new Date();
    const theirs = execFileSync('oathtool', [
      '--totp',
      '--base32',
      `--now=${now
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')}`,
      parameters.get('secret')!,
    ])
      .toString()
      .trim();
    expect(theirs).toBe(totpCode(secret, now));
  });
});

describe('RFC 6750 §3 on /metrics', () => {
  const token = randomBytes(32).toString('base64url');
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN: token } });
  });
  afterAll(() => t.close());

  it('gives no error code without credentials, and error="invalid_token" for a wrong token', async () => {
    const scrape = (authorization?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
    for (const absent of [undefined, `Basic ${token}`]) {
      const response = await scrape(absent);
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }
    for (const wrong of [`Bearer ${token}x`, `Bearer ${token.slice(1)}`, 'Bearer ', 'bearer x']) {
      const response = await scrape(wrong);
      expect(response.statusCode, wrong).toBe(401);
      expect(response.headers['www-authenticate'], wrong).toBe(
        'Bearer realm="metrics", error="invalid_token"',
      );
    }
    // The scheme is case-insensitive (RFC 9110 §11.1).
    expect((await scrape(`bearer ${token}`)).statusCode).toBe(200);
  });
});

describe('Permissions-Policy and Clear-Site-Data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('refuses the powerful features no page uses, on pages and API answers alike', async () => {
    for (const url of ['/home', '/api/health', '/api/no-such-thing']) {
      const policy = String(
        (await t.app.inject({ method: 'GET', url })).headers['permissions-policy'],
      );
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) {
        expect(policy, url).toContain(`${feature}=()`);
      }
    }
  });

  it('clears the site data where a dealer sign-out ends: the provider callback, or our answer when no provider is visited', async () => {
    const callback = await t.app.inject({ method: 'GET', url: '/web/oauth/callback/karid/logout' });
    expect(callback.statusCode).toBe(303);
    expect(callback.headers.location).toBe('/authlogout');
    expect(callback.headers['clear-site-data']).toBe(CLEARED);

    const browser = await t.browser();
    const local = await browser.request({ method: 'POST', url: '/api/auth/logout' });
    expect(local.statusCode).toBe(200);
    expect(local.json().data.redirectTo).toBe('/authlogout');
    expect(local.headers['clear-site-data']).toBe(CLEARED);

    // The signed-out page itself sets a fresh CSRF cookie, so it clears nothing.
    const page = await t.app.inject({ method: 'GET', url: '/authlogout' });
    expect(page.headers['clear-site-data']).toBeUndefined();
  });

  it('clears the site data where a staff sign-out ends, then shows the page; a failed sign-in clears nothing', async () => {
    const { cookie } = await staffSessionFor(t, 'admin');
    const browser = await t.browser();
    const out = await browser.request({
      method: 'POST',
      url: '/api/admin/logout',
      headers: { cookie: `${browser.cookie}; ${cookie}` },
    });
    expect(out.statusCode).toBe(200);
    // Still needed by the provider's end-session page: nothing cleared yet.
    expect(out.headers['clear-site-data']).toBeUndefined();

    const end = await t.app.inject({ method: 'GET', url: '/admin/signed-out' });
    expect(end.statusCode).toBe(303);
    expect(end.headers['clear-site-data']).toBe(CLEARED);
    const page = await t.app.inject({ method: 'GET', url: String(end.headers.location) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['clear-site-data']).toBeUndefined();

    const failed = await t.app.inject({ method: 'GET', url: '/admin/signed-out?err=sign-in' });
    expect(failed.statusCode).toBe(200);
    expect(failed.headers['clear-site-data']).toBeUndefined();
  });
});
