import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestBrowser } from './helper.ts';

describe('POST /api/log', () => {
  let t: TestApp;
  let browser: TestBrowser;
  beforeAll(async () => {
    t = await buildTestApp();
    browser = await t.browser();
  });
  afterAll(() => t.close());

  it('writes a client 403 report to the structured log with credentials masked', async () => {
    const response = await browser.request({
      method: 'POST',
      url: '/api/log',
      payload: {
        err: 'invalidToken',
        message: 'session ended',
        url: '/account/carfax/login?code=abc123&state=xyz&tab=2',
      },
    });
    expect(response.statusCode).toBe(204);
    const line = t.logs.find((entry) => entry.msg === 'client log');
    expect(line?.client).toEqual({
      err: 'invalidToken',
      message: 'session ended',
      url: '/account/carfax/login?code=***&state=***&tab=2',
    });
    expect(JSON.stringify(t.logs)).not.toContain('abc123');
  });

  it('accepts an event with options', async () => {
    const response = await browser.request({
      method: 'POST',
      url: '/api/log',
      payload: {
        event: 'autocheck updated',
        description: 'auto-purchase enabled',
        url: '/account/autoCheckIntegrations',
        enabled: true,
      },
    });
    expect(response.statusCode).toBe(204);
  });

  it.each([
    ['neither message nor event', { url: '/x' }],
    ['no url', { message: 'hello' }],
    ['a nested object', { message: 'x', url: '/x', extra: { deep: true } }],
    [
      'too many options',
      {
        message: 'x',
        url: '/x',
        ...Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${i}`, i])),
      },
    ],
  ])('refuses %s', async (_name, payload) => {
    const response = await browser.request({ method: 'POST', url: '/api/log', payload });
    expect(response.statusCode).toBe(400);
  });

  it('refuses bodies over 8 KB', async () => {
    const response = await browser.request({
      method: 'POST',
      url: '/api/log',
      payload: { message: 'x'.repeat(9000), url: '/x' },
    });
    expect(response.statusCode).toBe(413);
  });

  it('needs the CSRF token like every other write', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/log',
      headers: { 'content-type': 'application/json' },
      payload: { message: 'x', url: '/x' },
    });
    expect(response.statusCode).toBe(403);
  });
});
