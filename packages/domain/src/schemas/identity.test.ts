import { describe, expect, it } from 'vitest';
import {
  IDENTITY_MESSAGES,
  ZConnectKarIdRequestSchema,
  ZForgotPasswordRequestSchema,
  ZNewPasswordFormSchema,
  ZResetPasswordRequestSchema,
  ZSetPasswordRequestSchema,
} from './identity.ts';
import { issuesOf } from './test-helpers.ts';

const TOKEN = 'q2Xb7kLmN0pQrStUvWxYz_-AbCdEfGhIjKlMnOpQrSt';
const PASSWORD = 'Demo!Pass2026';
const SET = { token: TOKEN, password: PASSWORD, confirmPassword: PASSWORD };

describe('identity message texts (001 §8)', () => {
  it('are verbatim', () => {
    expect(IDENTITY_MESSAGES.password).toBe('Password does not meet requirements.');
    expect(IDENTITY_MESSAGES.confirmPassword).toBe('Confirm password does not meet requirements');
    expect(IDENTITY_MESSAGES.token).toBe(
      'Reset attempt was unsuccessful. Please use the most recent link or contact Customer Support.',
    );
    expect(IDENTITY_MESSAGES.email).toBe('Email not valid.');
  });
});

describe('ZSetPasswordRequestSchema / ZResetPasswordRequestSchema', () => {
  it('accepts a token and a password that meets the rule twice', () => {
    expect(ZSetPasswordRequestSchema.parse(SET)).toEqual(SET);
    expect(ZResetPasswordRequestSchema.parse({ ...SET, token: ` ${TOKEN} ` }).token).toBe(TOKEN);
  });

  it.each([
    ['too short', 'De!1pas'],
    ['no upper case', 'demo!pass2026'],
    ['no lower case', 'DEMO!PASS2026'],
    ['no digit', 'Demo!PassWord'],
    ['no special character', 'DemoPass2026'],
    ['a space', 'Demo! Pass2026'],
    ['too long', `Aa1!${'x'.repeat(125)}`],
  ])('refuses a password with %s', (_name, password) => {
    expect(
      issuesOf(ZSetPasswordRequestSchema, { ...SET, password, confirmPassword: password }),
    ).toEqual({
      password: 'Password does not meet requirements.',
      confirmPassword: 'Confirm password does not meet requirements',
    });
  });

  it.each([
    ['a different confirmation', { confirmPassword: 'Demo!Pass2027' }],
    ['a missing confirmation', { confirmPassword: undefined }],
    ['an empty confirmation', { confirmPassword: '' }],
  ])('refuses %s', (_name, change) => {
    expect(issuesOf(ZSetPasswordRequestSchema, { ...SET, ...change })).toEqual({
      confirmPassword: 'Confirm password does not meet requirements',
    });
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['too short', 'abc'],
    ['not base64url', `${TOKEN.slice(0, 42)}=`],
  ])('refuses a %s token with the reset message', (_name, token) => {
    expect(issuesOf(ZSetPasswordRequestSchema, { ...SET, token })).toEqual({
      token: IDENTITY_MESSAGES.token,
    });
  });

  it('the page form checks the same two fields', () => {
    expect(issuesOf(ZNewPasswordFormSchema, { password: 'x', confirmPassword: 'y' })).toEqual({
      password: 'Password does not meet requirements.',
      confirmPassword: 'Confirm password does not meet requirements',
    });
  });
});

describe('ZForgotPasswordRequestSchema', () => {
  it('accepts an e-mail and a captcha value', () => {
    expect(
      ZForgotPasswordRequestSchema.parse({ email: ' dana@example.com ', recaptcha: 'x' }),
    ).toEqual({ email: 'dana@example.com', recaptcha: 'x' });
  });

  it.each([
    ['email', { email: '' }, 'Email is required.'],
    ['email', { email: 'dana@' }, 'Email not valid.'],
    ['email', { email: 'a@b.co' }, 'Email not valid.'],
    ['recaptcha', { recaptcha: '' }, 'reCAPTCHA required to prove you’re not a robot.'],
    ['recaptcha', { recaptcha: undefined }, 'reCAPTCHA required to prove you’re not a robot.'],
  ])('refuses a bad %s', (path, change, message) => {
    expect(
      issuesOf(ZForgotPasswordRequestSchema, {
        email: 'dana@example.com',
        recaptcha: 'x',
        ...change,
      })[path],
    ).toBe(message);
  });
});

describe('ZConnectKarIdRequestSchema', () => {
  const CREATE = {
    mode: 'create',
    email: 'dana@example.com',
    password: PASSWORD,
    confirmPassword: PASSWORD,
  };
  const LINK = { mode: 'link', email: 'dana@example.com', password: 'anything' };

  it('accepts create and link', () => {
    expect(ZConnectKarIdRequestSchema.parse(CREATE)).toEqual(CREATE);
    expect(ZConnectKarIdRequestSchema.parse(LINK)).toEqual(LINK);
  });

  it('applies the password rule to a new DealerPass ID only', () => {
    expect(
      issuesOf(ZConnectKarIdRequestSchema, {
        ...CREATE,
        password: 'weak',
        confirmPassword: 'weak',
      }),
    ).toEqual({
      password: 'Password does not meet requirements.',
      confirmPassword: 'Confirm password does not meet requirements',
    });
    expect(
      issuesOf(ZConnectKarIdRequestSchema, { ...CREATE, confirmPassword: 'Other!Pass1' }),
    ).toEqual({
      confirmPassword: 'Confirm password does not meet requirements',
    });
    expect(ZConnectKarIdRequestSchema.safeParse({ ...LINK, password: 'weak' }).success).toBe(true);
  });

  it('refuses a bad e-mail, a missing password and an unknown mode', () => {
    expect(issuesOf(ZConnectKarIdRequestSchema, { ...LINK, email: 'nope' })).toEqual({
      email: 'Email not valid.',
    });
    expect(issuesOf(ZConnectKarIdRequestSchema, { ...LINK, password: '' })).toEqual({
      password: 'Password is required.',
    });
    expect(issuesOf(ZConnectKarIdRequestSchema, { ...LINK, mode: 'upgrade' })).toEqual({
      mode: IDENTITY_MESSAGES.mode,
    });
  });
});
