import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/helper.ts';

const VALID = {
  fullName: 'Rae Recaptcha',
  email: 'rae@example.com',
  phoneCountry: 'United States',
  phoneNumber: '3135550100',
  queryType: 'Sales',
  comments: 'Hello',
  source: 'Web',
};

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return new URLSearchParams(body);
}

/** Speaks Google's siteverify protocol: form-encoded secret, response and remoteip in; JSON out. */
async function startSiteverifyDouble() {
  const calls: Record<string, string>[] = [];
  const spent = new Set<string>();
  const server = createServer(async (request, response) => {
    const form = await readForm(request);
    calls.push(Object.fromEntries(form));
    const token = form.get('response') ?? '';
    const ok =
      form.get('secret') === 'server-secret' && token.startsWith('good-') && !spent.has(token);
    spent.add(token);
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify(
        ok ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] },
      ),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/recaptcha/api/siteverify`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('reCAPTCHA when its keys are configured (DECISIONS R8)', () => {
  let google: Awaited<ReturnType<typeof startSiteverifyDouble>>;
  let t: TestApp;
  beforeAll(async () => {
    google = await startSiteverifyDouble();
    t = await buildTestApp({
      env: {
        RECAPTCHA_SITE_KEY: 'site-key',
        RECAPTCHA_SECRET_KEY: 'server-secret',
        RECAPTCHA_VERIFY_URL: google.url,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await google.close();
  });

  it('publishes the site key, never the secret, and allows Google in the page CSP', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/contact' });
    expect(page.body).toContain(
      '&quot;kind&quot;:&quot;recaptcha&quot;,&quot;siteKey&quot;:&quot;site-key&quot;',
    );
    expect(page.body).not.toContain('server-secret');
    expect(page.headers['content-security-policy']).toContain('https://www.google.com/recaptcha/');
    expect((await t.app.inject({ method: 'GET', url: '/api/captcha/challenge' })).statusCode).toBe(
      404,
    );
  });

  it('verifies the token with the secret and the client address, and accepts it once', async () => {
    const browser = await t.browser();
    const ok = await browser.request({
      method: 'POST',
      url: '/api/v2/contactUs',
      payload: { ...VALID, recaptcha: 'good-token-1' },
      remoteAddress: '10.2.0.1',
    });
    expect(ok.statusCode).toBe(201);
    expect(google.calls.at(-1)).toEqual({
      secret: 'server-secret',
      response: 'good-token-1',
      remoteip: '10.2.0.1',
    });

    const refused = await browser.request({
      method: 'POST',
      url: '/api/v2/contactUs',
      payload: { ...VALID, recaptcha: 'bad-token' },
    });
    expect(refused.json()).toMatchObject({
      statusCode: 400,
      code: 'CAPTCHA_FAILED',
      message: 'Could not verify reCAPTCHA token.',
    });

    const replayed = await browser.request({
      method: 'POST',
      url: '/api/v2/contactUs',
      payload: { ...VALID, recaptcha: 'good-token-1' },
    });
    expect(replayed.json().code).toBe('CAPTCHA_FAILED');
  });

  it('refuses the captcha when Google cannot be reached', async () => {
    const unreachable = await buildTestApp({
      env: {
        RECAPTCHA_SITE_KEY: 's',
        RECAPTCHA_SECRET_KEY: 'server-secret',
        RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/siteverify',
      },
    });
    try {
      const response = await (
        await unreachable.browser()
      ).request({
        method: 'POST',
        url: '/api/v2/contactUs',
        payload: { ...VALID, recaptcha: 'good-token-2' },
      });
      expect(response.json().code).toBe('CAPTCHA_FAILED');
    } finally {
      await unreachable.close();
    }
  });
});
