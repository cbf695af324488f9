import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { captchaRedemptions, identities, identityTokens, mailOutbox } from '../../src/db/schema.ts';
import { authenticateWithEmail } from '../../src/services/identity/authenticate.ts';
import { createIdentity } from '../../src/services/identity/create-identity.ts';
import {
  hashIdentityToken,
  issueIdentityToken,
} from '../../src/services/identity/identity-tokens.ts';
import { verifyPassword } from '../../src/services/identity/passwords.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';

const PASSWORD = 'Fresh!Start2026';
const OLD_PASSWORD = 'Old!Password1';
const MESSAGES = {
  password: 'Password does not meet requirements.',
  confirmPassword: 'Confirm password does not meet requirements',
  resetInvalid:
    'Reset attempt was unsuccessful. Please use the most recent link or contact Customer Support.',
  expired: 'Temporary password has expired.  Please reset again.',
  notFound: 'Username was not found. Please try again.',
};

let clock = new Date('2026-03-02T15:00:00Z');
const advance = (minutes: number) => {
  clock = new Date(clock.getTime() + minutes * 60_000);
};

// Each request from its own address, so the per-client rate limit only bites where it is tested.
let nextAddress = 1;
const freshIp = () => `10.4.0.${nextAddress++}`;

let t: TestApp;
let browser: TestBrowser;
beforeAll(async () => {
  t = await buildTestApp({
    now: () => clock,
  });
});
afterAll(() => t.close());
beforeEach(async () => {
  browser = await t.browser();
});

let emailCounter = 0;
async function newIdentity(password?: string) {
  emailCounter += 1;
  const email = `person${emailCounter}@example.com`;
  const identity = await createIdentity(t.app.db, { email, password });
  return { ...identity, email };
}

function link(identityId: string, purpose: 'set-password' | 'reset-password') {
  return issueIdentityToken(t.app.db, { identityId, purpose, now: clock, ttlMinutes: 60 });
}

async function identityRow(id: string) {
  const [row] = await t.app.db.select().from(identities).where(eq(identities.id, id));
  if (!row) throw new Error('no identity');
  return row;
}

async function tokenRow(token: string) {
  const [row] = await t.app.db
    .select()
    .from(identityTokens)
    .where(eq(identityTokens.tokenHash, hashIdentityToken(token)));
  return row;
}

const post = (url: string, payload: Record<string, unknown>) =>
  browser.request({ method: 'POST', url, payload, remoteAddress: freshIp() });

describe.each([
  ['/api/identity/password/set', 'set-password'],
  ['/api/identity/password/reset', 'reset-password'],
] as const)('POST %s', (url, purpose) => {
  it('sets the Argon2id hash, marks the e-mail verified and spends the link', async () => {
    const identity = await newIdentity(purpose === 'reset-password' ? OLD_PASSWORD : undefined);
    const token = await link(identity.id, purpose);
    const response = await post(url, { token, password: PASSWORD, confirmPassword: PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { email: identity.email } });
    expect(response.body).not.toContain('argon2');

    const row = await identityRow(identity.id);
    expect(row.emailVerified).toBe(true);
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(row.passwordHash ?? '', PASSWORD)).toBe(true);
    expect((await tokenRow(token))?.usedAt).toEqual(clock);
    expect(
      await authenticateWithEmail(t.app.db, {
        email: identity.email,
        password: PASSWORD,
        now: clock,
      }),
    ).toMatchObject({ ok: true, identityId: identity.id });

    const again = await post(url, { token, password: PASSWORD, confirmPassword: PASSWORD });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'RESET_INVALID', message: MESSAGES.resetInvalid });
  });

  const invalidCases: [string, Record<string, unknown>, string, string][] = [
    [
      'a weak password',
      { password: 'weakpass', confirmPassword: 'weakpass' },
      'password',
      MESSAGES.password,
    ],
    [
      'a password with a space',
      { password: 'Fresh! Start1', confirmPassword: 'Fresh! Start1' },
      'password',
      MESSAGES.password,
    ],
    ['a missing password', { password: undefined }, 'password', MESSAGES.password],
    [
      'a different confirmation',
      { confirmPassword: 'Fresh!Start2027' },
      'confirmPassword',
      MESSAGES.confirmPassword,
    ],
    [
      'a missing confirmation',
      { confirmPassword: undefined },
      'confirmPassword',
      MESSAGES.confirmPassword,
    ],
    ['a malformed token', { token: 'not-a-token' }, 'token', MESSAGES.resetInvalid],
    ['a missing token', { token: undefined }, 'token', MESSAGES.resetInvalid],
  ];

  it.each(invalidCases)(
    'refuses %s with the verbatim message and changes nothing',
    async (_name, change, source, message) => {
      const identity = await newIdentity(OLD_PASSWORD);
      const token = await link(identity.id, purpose);
      const before = await identityRow(identity.id);
      const response = await post(url, {
        token,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        ...change,
      });
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.errors).toContainEqual({ source, message });
      expect(await identityRow(identity.id)).toEqual(before);
      expect((await tokenRow(token))?.usedAt).toBeNull();
    },
  );

  it('refuses an unknown token and one superseded by a newer link', async () => {
    const identity = await newIdentity(OLD_PASSWORD);
    const older = await link(identity.id, purpose);
    advance(1);
    const newer = await link(identity.id, purpose);
    const before = await identityRow(identity.id);
    for (const token of [older, 'Z'.repeat(43)]) {
      const response = await post(url, { token, password: PASSWORD, confirmPassword: PASSWORD });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        statusCode: 400,
        code: 'RESET_INVALID',
        message: MESSAGES.resetInvalid,
        errors: [{ source: 'token', message: MESSAGES.resetInvalid }],
      });
    }
    expect(await identityRow(identity.id)).toEqual(before);
    const ok = await post(url, { token: newer, password: PASSWORD, confirmPassword: PASSWORD });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses an expired link with the verbatim text and writes nothing', async () => {
    const identity = await newIdentity(OLD_PASSWORD);
    const token = await link(identity.id, purpose);
    const before = await identityRow(identity.id);
    advance(60);
    const response = await post(url, { token, password: PASSWORD, confirmPassword: PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      code: 'TEMPORARY_PASSWORD_EXPIRED',
      message: MESSAGES.expired,
      errors: [{ source: 'token', message: MESSAGES.expired }],
    });
    const after = await identityRow(identity.id);
    expect(after).toEqual(before);
    expect(after.emailVerified).toBe(false);
    expect(await verifyPassword(after.passwordHash ?? '', OLD_PASSWORD)).toBe(true);
    expect((await tokenRow(token))?.usedAt).toBeNull();
  });

  it('refuses a link made for the other page', async () => {
    const identity = await newIdentity(OLD_PASSWORD);
    const token = await link(
      identity.id,
      purpose === 'set-password' ? 'reset-password' : 'set-password',
    );
    const response = await post(url, { token, password: PASSWORD, confirmPassword: PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('RESET_INVALID');
  });

  it('needs the CSRF token like every other change', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url,
      payload: { token: 'x', password: PASSWORD, confirmPassword: PASSWORD },
      remoteAddress: freshIp(),
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('POST /api/identity/password/forgot', () => {
  const outboxSize = async () => {
    const [row] = await t.app.db.select({ n: count() }).from(mailOutbox);
    return row?.n ?? -1;
  };

  it('mails a reset link that is valid for an hour and sets a new password', async () => {
    const identity = await newIdentity(OLD_PASSWORD);
    const response = await post('/api/identity/password/forgot', {
      email: identity.email.toUpperCase(),
      recaptcha: await t.solveCaptcha(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { sent: true } });

    const mailbox = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
    const [mail] = mailbox.json().data.messages;
    expect(mail.to).toBe(identity.email);
    expect(mail.subject).toBe('Reset your DealerPass ID password');
    const match =
      /http:\/\/localhost:3000\/identity\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(
        mail.text,
      );
    expect(match).not.toBeNull();
    const token = match?.[1] ?? '';
    const stored = await tokenRow(token);
    expect(stored?.purpose).toBe('reset-password');
    expect(stored?.expiresAt).toEqual(new Date(clock.getTime() + 60 * 60_000));

    const reset = await post('/api/identity/password/reset', {
      token,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ data: { email: identity.email } });
    const row = await identityRow(identity.id);
    expect(await verifyPassword(row.passwordHash ?? '', PASSWORD)).toBe(true);
    expect(await verifyPassword(row.passwordHash ?? '', OLD_PASSWORD)).toBe(false);
  });

  it('a second request withdraws the first link', async () => {
    const identity = await newIdentity(OLD_PASSWORD);
    for (let i = 0; i < 2; i += 1) {
      const response = await post('/api/identity/password/forgot', {
        email: identity.email,
        recaptcha: await t.solveCaptcha(),
      });
      expect(response.statusCode).toBe(200);
    }
    const mails = await t.app.db
      .select({ text: mailOutbox.textBody })
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, identity.email))
      .orderBy(mailOutbox.createdAt);
    const [first, second] = mails.map((m) => /token=([A-Za-z0-9_-]{43})/.exec(m.text)?.[1]);
    expect(mails).toHaveLength(2);
    const old = await post('/api/identity/password/reset', {
      token: first,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(old.json().code).toBe('RESET_INVALID');
    const latest = await post('/api/identity/password/reset', {
      token: second,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(latest.statusCode).toBe(200);
  });

  it('answers 404 for an unknown e-mail, mails nothing and still spends the captcha', async () => {
    const before = await outboxSize();
    const recaptcha = await t.solveCaptcha();
    const response = await post('/api/identity/password/forgot', {
      email: 'nobody.here@example.com',
      recaptcha,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      statusCode: 404,
      code: 'USERNAME_NOT_FOUND',
      message: MESSAGES.notFound,
      errors: [{ source: 'email', message: MESSAGES.notFound }],
    });
    expect(await outboxSize()).toBe(before);
    const identity = await newIdentity(OLD_PASSWORD);
    const replay = await post('/api/identity/password/forgot', {
      email: identity.email,
      recaptcha,
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('CAPTCHA_FAILED');
  });

  it('needs a captcha, and a solved one', async () => {
    const identity = await newIdentity(OLD_PASSWORD);
    const before = await outboxSize();
    const [redemptions] = await t.app.db.select({ n: count() }).from(captchaRedemptions);

    const missing = await post('/api/identity/password/forgot', { email: identity.email });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toContainEqual({
      source: 'recaptcha',
      message: 'reCAPTCHA required to prove you’re not a robot.',
    });

    const unsolved = await post('/api/identity/password/forgot', {
      email: identity.email,
      recaptcha: 'not-a-solution',
    });
    expect(unsolved.statusCode).toBe(400);
    expect(unsolved.json()).toMatchObject({
      code: 'CAPTCHA_FAILED',
      message: 'Could not verify reCAPTCHA token.',
    });
    expect(await outboxSize()).toBe(before);
    const [after] = await t.app.db.select({ n: count() }).from(captchaRedemptions);
    expect(after?.n).toBe(redemptions?.n);
  });

  it('refuses a malformed e-mail', async () => {
    const response = await post('/api/identity/password/forgot', {
      email: 'dana@',
      recaptcha: 'x',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ source: 'email', message: 'Email not valid.' });
  });
});

describe('rate limits per client', () => {
  it.each([
    ['/api/identity/password/forgot', 10],
    ['/api/identity/password/set', 20],
    ['/api/identity/password/reset', 20],
  ])('%s allows %i requests per 10 minutes from one address', async (url, max) => {
    const remoteAddress = freshIp();
    for (let i = 0; i < max; i += 1) {
      const response = await browser.request({ method: 'POST', url, payload: {}, remoteAddress });
      expect(response.statusCode).toBe(400);
    }
    const limited = await browser.request({ method: 'POST', url, payload: {}, remoteAddress });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    const other = await browser.request({
      method: 'POST',
      url,
      payload: {},
      remoteAddress: freshIp(),
    });
    expect(other.statusCode).toBe(400);
  });
});
