import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, ENV_VARIABLES, loadConfig } from '../../src/config.ts';

const CARFAX_ENV = {
  CARFAX_CLIENT_ID: 'dealerpass',
  CARFAX_CLIENT_SECRET: 'secret',
  CARFAX_AUTHORIZE_URL: 'https://auth.carfax.example/authorize',
  CARFAX_TOKEN_URL: 'https://auth.carfax.example/oauth/token',
  CARFAX_REVOKE_URL: 'https://auth.carfax.example/oauth/revoke',
  CARFAX_LOGOUT_URL: 'https://auth.carfax.example/v2/logout',
};
const AUTOCHECK_ENV = {
  AUTOCHECK_VERIFY_URL: 'https://api.autocheck.example/v1/credentials/verify',
  AUTOCHECK_API_KEY: 'key',
};

describe('loadConfig', () => {
  it('has working defaults: demo, port 3000, PGlite in ./data, the mailbox and ALTCHA', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'demo',
      port: 3000,
      publicUrl: 'http://localhost:3000',
      dataDir: './data',
      databaseUrl: undefined,
      captcha: { kind: 'altcha' },
      sandboxes: ['mailbox', 'payments', 'carfax', 'autocheck'],
      payments: { kind: 'sandbox', delayMs: 0 },
      carfax: { kind: 'sandbox' },
      autoCheck: { kind: 'sandbox' },
      billing: { timeZone: 'America/New_York', runIntervalMinutes: 15 },
      company: { supportPhone: '1-800-555-0199', emailDomain: 'dealerpass.example' },
    });
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(3000);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ APP_ENV: 'staging' }, 'APP_ENV'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ SECRET_KEY: 'short' }, 'SECRET_KEY'],
    [{ RECAPTCHA_SITE_KEY: 'site' }, 'RECAPTCHA_SECRET_KEY'],
    [
      { APP_ENV: 'production', PUBLIC_URL: 'https://dealerpass.example', SMTP_URL: 'smtp://mail' },
      'SECRET_KEY',
    ],
  ])('names the variable when a value is wrong: %j', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`\\b${variable}\\b`));
  });

  it('trusts the proxies named by address, range or name, and refuses a hop count (docs/decisions/030)', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5' }).trustProxy).toEqual(['10.0.0.5']);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
      'loopback',
    ]);
    for (const wrong of ['1', '2', '10.0.0.0/33', '300.1.1.1', '10.0.0.5,', 'proxy.example']) {
      expect(() => loadConfig({ TRUST_PROXY: wrong }), wrong).toThrow(/\bTRUST_PROXY\b/);
    }
    expect(() => loadConfig({ TRUST_PROXY: '1' })).toThrow(/number of hops/);
  });

  it('refuses TRUST_PROXY=true in production: it believes what a client writes (issue 24)', () => {
    const production = {
      APP_ENV: 'production',
      PUBLIC_URL: 'https://dealerpass.example',
      SECRET_KEY: 'a'.repeat(44),
      SMTP_URL: 'smtp://mail.example:587',
      ALLOW_SANDBOX_IN_PRODUCTION: 'true',
    };
    expect(() => loadConfig({ ...production, TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY \(got "true"\): may not be true in production/,
    );
    expect(loadConfig({ ...production, TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
    ]);
    // Tests without a proxy may still send their own addresses.
    expect(loadConfig({ APP_ENV: 'test', TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  });

  it('never repeats a secret value in its message', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root:hunter2@db/x' })).toThrow(/\*\*\*/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root:hunter2@db/x' })).not.toThrow(/hunter2/);
  });

  it('refuses the embedded mailbox in production unless sandboxes are allowed (DECISIONS R8)', () => {
    const production = {
      APP_ENV: 'production',
      PUBLIC_URL: 'https://dealerpass.example',
      SECRET_KEY: 'a'.repeat(44),
      // Authorize.Net configured, so the only sandbox in question is the mailbox.
      AUTHORIZE_NET_API_LOGIN_ID: 'login',
      AUTHORIZE_NET_TRANSACTION_KEY: 'key',
      AUTHORIZE_NET_CLIENT_KEY: 'client',
      ...CARFAX_ENV,
      ...AUTOCHECK_ENV,
    };
    expect(() => loadConfig(production)).toThrow(/SMTP_URL/);
    expect(loadConfig({ ...production, ALLOW_SANDBOX_IN_PRODUCTION: 'true' }).sandboxes).toEqual([
      'mailbox',
    ]);
    // Mail is kept, but the mailbox that shows it to every visitor is never served in production.
    expect(loadConfig({ ...production, ALLOW_SANDBOX_IN_PRODUCTION: 'true' }).devMailbox).toBe(
      false,
    );
    expect(loadConfig({}).devMailbox).toBe(true);
    expect(loadConfig({ ...production, SMTP_URL: 'smtp://mail.example:587' }).sandboxes).toEqual(
      [],
    );
  });

  it('uses the embedded identity provider unless all three external settings are given', () => {
    expect(loadConfig({}).identity).toEqual({ kind: 'embedded' });
    expect(
      loadConfig({
        OIDC_ISSUER: 'https://id.example.com',
        OIDC_CLIENT_ID: 'c',
        OIDC_CLIENT_SECRET: 's',
      }).identity,
    ).toMatchObject({
      kind: 'external',
      issuer: 'https://id.example.com',
    });
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(/OIDC_CLIENT_ID/);
  });

  it('seeds demo data in demo and development only, unless told otherwise', () => {
    expect(loadConfig({}).seedDemoData).toBe(true);
    expect(loadConfig({ APP_ENV: 'test' }).seedDemoData).toBe(false);
    expect(loadConfig({ APP_ENV: 'test', SEED_DEMO_DATA: 'true' }).seedDemoData).toBe(true);
  });

  it('takes TEST_ACCOUNTS_FILE with APP_ENV=test only (docs/decisions/065)', () => {
    expect(loadConfig({}).testAccountsFile).toBeNull();
    expect(
      loadConfig({ APP_ENV: 'test', TEST_ACCOUNTS_FILE: '/tmp/accounts.json' }).testAccountsFile,
    ).toBe('/tmp/accounts.json');
    for (const env of ['demo', 'development', 'production']) {
      const setting = { APP_ENV: env, TEST_ACCOUNTS_FILE: '/tmp/accounts.json' };
      expect(() => loadConfig(setting)).toThrow(ConfigError);
      expect(() => loadConfig(setting)).toThrow(
        `TEST_ACCOUNTS_FILE (got "/tmp/accounts.json"): is for the tests' servers only (APP_ENV=test), not APP_ENV=${env}`,
      );
    }
  });

  it('refuses the sandbox gateway in production unless allowed, and names a bad time zone', () => {
    const production = {
      APP_ENV: 'production',
      PUBLIC_URL: 'https://dealerpass.example',
      SECRET_KEY: 'a'.repeat(44),
      SMTP_URL: 'smtp://mail.example:587',
    };
    expect(() => loadConfig(production)).toThrow(/AUTHORIZE_NET_API_LOGIN_ID/);
    expect(() => loadConfig({ BUSINESS_TIME_ZONE: 'Mars/Olympus' })).toThrow(/BUSINESS_TIME_ZONE/);
  });

  it('switches to reCAPTCHA when both keys are set', () => {
    expect(
      loadConfig({ RECAPTCHA_SITE_KEY: 'site', RECAPTCHA_SECRET_KEY: 'secret' }).captcha,
    ).toMatchObject({
      kind: 'recaptcha',
      siteKey: 'site',
    });
  });

  it('uses the Carfax and AutoCheck sandboxes unless their settings are all given (issue 8)', () => {
    expect(loadConfig(CARFAX_ENV).carfax).toMatchObject({
      kind: 'carfax',
      clientId: 'dealerpass',
      scope: 'offline_access',
      timeoutMs: 10_000,
    });
    expect(loadConfig(CARFAX_ENV).sandboxes).not.toContain('carfax');
    expect(() => loadConfig({ CARFAX_CLIENT_ID: 'x' })).toThrow(/CARFAX_CLIENT_SECRET/);
    expect(loadConfig(AUTOCHECK_ENV).autoCheck).toMatchObject({ kind: 'autocheck', apiKey: 'key' });
    expect(() => loadConfig({ AUTOCHECK_API_KEY: 'k' })).toThrow(/AUTOCHECK_VERIFY_URL/);
    const production = {
      APP_ENV: 'production',
      PUBLIC_URL: 'https://dealerpass.example',
      SECRET_KEY: 'a'.repeat(44),
      SMTP_URL: 'smtp://mail.example:587',
      AUTHORIZE_NET_API_LOGIN_ID: 'login',
      AUTHORIZE_NET_TRANSACTION_KEY: 'key',
      AUTHORIZE_NET_CLIENT_KEY: 'client',
    };
    expect(() => loadConfig({ ...production, ...AUTOCHECK_ENV })).toThrow(/CARFAX_CLIENT_ID/);
    expect(() => loadConfig({ ...production, ...CARFAX_ENV })).toThrow(/AUTOCHECK_VERIFY_URL/);
    expect(loadConfig({ ...production, ...CARFAX_ENV, ...AUTOCHECK_ENV }).sandboxes).toEqual([]);
  });
});

describe('the settings are documented where an operator looks (README, .env.example)', () => {
  const root = fileURLToPath(new URL('../../../..', import.meta.url));
  const readme = readFileSync(`${root}/README.md`, 'utf8');
  const configuration = readme.slice(
    readme.indexOf('## Configuration'),
    readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1),
  );
  const tableVariables = new Set(
    configuration
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...(line.split(' | ')[0] ?? '').matchAll(/`([A-Z0-9_]+)`/g)])
      .map((match) => match[1]!),
  );
  const exampleVariables = new Set(
    [...readFileSync(`${root}/.env.example`, 'utf8').matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map(
      (match) => match[1]!,
    ),
  );

  it('every variable the server reads is in the README’s table and in .env.example, and no other', () => {
    expect([...tableVariables].sort()).toEqual([...ENV_VARIABLES].sort());
    expect([...exampleVariables].sort()).toEqual([...ENV_VARIABLES].sort());
  });

  it('REDIS_URL turns on the shared counters (R13); unset, none', () => {
    expect(loadConfig({}).redis).toBeNull();
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redis).toEqual({
      url: 'redis://127.0.0.1:6379',
      keyPrefix: 'dealerpass:',
    });
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ REDIS_URL: 'redis://x', REDIS_KEY_PREFIX: 'a b' })).toThrow(
      /REDIS_KEY_PREFIX/,
    );
  });
});
