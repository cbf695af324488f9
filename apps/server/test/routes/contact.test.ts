import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { CONTACT_MESSAGES } from '@dealerpass/domain/schemas/contact';
import { contactRequests, mailOutbox } from '../../src/db/schema.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';

const VALID = {
  fullName: 'Dana Dealer',
  email: 'dana@example.com',
  phoneCountry: 'United States',
  phoneNumber: '3135550142',
  queryType: 'Sales',
  auctionAccessNumber: '100123456',
  comments: 'Do you offer group pricing for three rooftops?',
  source: 'Web',
} as const;

// Each request from its own address, so the per-client rate limit only bites in its own test.
let nextAddress = 1;
const freshIp = () => `10.1.0.${nextAddress++}`;

describe('POST /api/v2/contactUs', () => {
  let t: TestApp;
  let browser: TestBrowser;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    browser = await t.browser();
  });

  const stored = async () => {
    const [requests] = await t.app.db.select({ n: count() }).from(contactRequests);
    const [mails] = await t.app.db.select({ n: count() }).from(mailOutbox);
    return { requests: requests?.n ?? -1, mails: mails?.n ?? -1 };
  };

  it('stores a valid message and puts a mail to support in the mailbox', async () => {
    const before = await stored();
    const response = await browser.request({
      method: 'POST',
      url: '/api/v2/contactUs',
      payload: { ...VALID, recaptcha: await t.solveCaptcha() },
      remoteAddress: freshIp(),
    });
    expect(response.statusCode).toBe(201);
    const id = response.json().data.id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    expect(await stored()).toEqual({ requests: before.requests + 1, mails: before.mails + 1 });
    const mailbox = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
    const [mail] = mailbox.json().data.messages;
    expect(mail.to).toBe('support@dealerpass.example');
    expect(mail.replyTo).toBe(VALID.email);
    expect(mail.subject).toBe('Contact Us: Sales from Dana Dealer');
    expect(mail.text).toContain(VALID.comments);
    expect(mail.text).toContain(id);
  });

  const invalidCases: [string, Record<string, unknown>, string, string][] = [
    ['missing name', { fullName: undefined }, 'fullName', CONTACT_MESSAGES.fullName],
    ['blank name', { fullName: '   ' }, 'fullName', CONTACT_MESSAGES.fullName],
    ['bad e-mail', { email: 'dana@' }, 'email', CONTACT_MESSAGES.email],
    ['missing e-mail', { email: undefined }, 'email', CONTACT_MESSAGES.email],
    [
      'unknown phone country',
      { phoneCountry: 'France' },
      'phoneCountry',
      CONTACT_MESSAGES.phoneCountry,
    ],
    ['nine-digit phone', { phoneNumber: '313555014' }, 'phoneNumber', CONTACT_MESSAGES.phoneNumber],
    ['dashed phone', { phoneNumber: '313-555-0142' }, 'phoneNumber', CONTACT_MESSAGES.phoneNumber],
    ['unknown reason', { queryType: 'Complaint' }, 'queryType', CONTACT_MESSAGES.queryType],
    [
      'letters in AuctionACCESS number',
      { auctionAccessNumber: '12ab' },
      'auctionAccessNumber',
      CONTACT_MESSAGES.auctionAccessNumber,
    ],
    ['missing comments', { comments: '' }, 'comments', CONTACT_MESSAGES.comments],
    ['missing captcha', { recaptcha: '' }, 'recaptcha', CONTACT_MESSAGES.recaptcha],
    ['wrong source', { source: 'Mobile' }, 'source', CONTACT_MESSAGES.source],
  ];

  it.each(invalidCases)(
    'refuses %s with the form’s message and stores nothing',
    async (_name, change, source, message) => {
      const before = await stored();
      const response = await browser.request({
        method: 'POST',
        url: '/api/v2/contactUs',
        payload: { ...VALID, recaptcha: 'x', ...change },
        remoteAddress: freshIp(),
      });
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.errors).toContainEqual({ source, message });
      expect(await stored()).toEqual(before);
    },
  );

  it('refuses a captcha that was not solved', async () => {
    const before = await stored();
    const fake = Buffer.from(
      JSON.stringify({
        algorithm: 'SHA-256',
        challenge: 'a'.repeat(64),
        number: 1,
        salt: 'x?expires=9999999999',
        signature: 'b'.repeat(64),
      }),
    ).toString('base64');
    for (const recaptcha of [fake, 'not-base64-json']) {
      const response = await browser.request({
        method: 'POST',
        url: '/api/v2/contactUs',
        payload: { ...VALID, recaptcha },
        remoteAddress: freshIp(),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'CAPTCHA_FAILED',
        message: 'Could not verify reCAPTCHA token.',
      });
    }
    expect(await stored()).toEqual(before);
  });

  it('accepts a solved captcha once only', async () => {
    const recaptcha = await t.solveCaptcha();
    const first = await browser.request({
      method: 'POST',
      url: '/api/v2/contactUs',
      payload: { ...VALID, recaptcha },
      remoteAddress: freshIp(),
    });
    expect(first.statusCode).toBe(201);
    const before = await stored();
    const replay = await browser.request({
      method: 'POST',
      url: '/api/v2/contactUs',
      payload: { ...VALID, recaptcha },
      remoteAddress: freshIp(),
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('CAPTCHA_FAILED');
    expect(await stored()).toEqual(before);
  });

  it('refuses a captcha after it expired', async () => {
    let now = new Date('2026-03-01T12:00:00Z');
    const timed = await buildTestApp({ now: () => now, env: { CAPTCHA_TTL_SECONDS: '60' } });
    try {
      const recaptcha = await timed.solveCaptcha();
      now = new Date(now.getTime() + 61_000);
      const response = await (
        await timed.browser()
      ).request({
        method: 'POST',
        url: '/api/v2/contactUs',
        payload: { ...VALID, recaptcha },
      });
      expect(response.json().code).toBe('CAPTCHA_FAILED');
    } finally {
      await timed.close();
    }
  });

  it('refuses a request without the CSRF token, or with another browser’s token (403)', async () => {
    const before = await stored();
    const payload = JSON.stringify({ ...VALID, recaptcha: await t.solveCaptcha() });
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/v2/contactUs',
      headers: { 'content-type': 'application/json', cookie: browser.cookie },
      payload,
    });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().code).toBe('CSRF_FAILED');

    const other = await t.browser();
    const crossed = await t.app.inject({
      method: 'POST',
      url: '/api/v2/contactUs',
      headers: {
        'content-type': 'application/json',
        cookie: browser.cookie,
        'x-csrf-token': other.token,
      },
      payload,
    });
    expect(crossed.statusCode).toBe(403);

    const noCookie = await t.app.inject({
      method: 'POST',
      url: '/api/v2/contactUs',
      headers: { 'content-type': 'application/json', 'x-csrf-token': browser.token },
      payload,
    });
    expect(noCookie.statusCode).toBe(403);
    expect(await stored()).toEqual(before);
  });

  it('refuses a body that is not JSON (415)', async () => {
    for (const [type, payload] of [
      ['text/plain', JSON.stringify(VALID)],
      ['application/x-www-form-urlencoded', 'fullName=Dana'],
      ['multipart/form-data; boundary=x', '--x--'],
    ] as const) {
      const response = await browser.request({
        method: 'POST',
        url: '/api/v2/contactUs',
        headers: { 'content-type': type },
        payload,
        remoteAddress: freshIp(),
      });
      expect(response.statusCode).toBe(415);
      expect(response.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('refuses malformed JSON with 400', async () => {
    const response = await browser.request({
      method: 'POST',
      url: '/api/v2/contactUs',
      headers: { 'content-type': 'application/json' },
      payload: '{"fullName": ',
      remoteAddress: freshIp(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_FAILED');
  });

  it('refuses an oversized body (413) and stores nothing', async () => {
    const before = await stored();
    const response = await browser.request({
      method: 'POST',
      url: '/api/v2/contactUs',
      payload: { ...VALID, recaptcha: 'x', comments: 'x'.repeat(20_000) },
      remoteAddress: freshIp(),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('PAYLOAD_TOO_LARGE');
    expect(await stored()).toEqual(before);
  });

  it('limits each client to five messages in ten minutes', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await browser.request({
        method: 'POST',
        url: '/api/v2/contactUs',
        payload: { ...VALID, recaptcha: await t.solveCaptcha() },
        remoteAddress: ip,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    const other = await browser.request({
      method: 'POST',
      url: '/api/v2/contactUs',
      payload: { ...VALID, recaptcha: await t.solveCaptcha() },
      remoteAddress: freshIp(),
    });
    expect(other.statusCode).toBe(201);
  });

  it('keeps comments, e-mail and captcha out of the logs', async () => {
    await browser.request({
      method: 'POST',
      url: '/api/v2/contactUs',
      payload: { ...VALID, comments: 'secret-comment-text', recaptcha: await t.solveCaptcha() },
      remoteAddress: freshIp(),
    });
    const text = JSON.stringify(t.logs);
    expect(text).not.toContain('secret-comment-text');
    expect(text).not.toContain(browser.token);
    expect(text).not.toContain(browser.cookie.split('=')[1]);
  });
});
