import { describe, expect, it } from 'vitest';
import { createPaymentGateway } from '../../src/adapters/payments/create-payment-gateway.ts';
import {
  ACCEPT_JS_URLS,
  AUTHORIZE_NET_ENDPOINTS,
  ZPaymentsEnvSchema,
  paymentsConfigFromEnv,
} from '../../src/adapters/payments/payments-config.ts';
import type { Database } from '../../src/db/client.ts';

const KEYS = {
  AUTHORIZE_NET_API_LOGIN_ID: 'login',
  AUTHORIZE_NET_TRANSACTION_KEY: 'secret-key',
  AUTHORIZE_NET_CLIENT_KEY: 'client-key',
};

function issues(env: Record<string, string>) {
  const parsed = ZPaymentsEnvSchema.safeParse(env);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('payment gateway configuration', () => {
  it('is the sandbox by default, with its delay', () => {
    expect(paymentsConfigFromEnv(ZPaymentsEnvSchema.parse({}))).toEqual({
      kind: 'sandbox',
      delayMs: 0,
    });
    expect(
      paymentsConfigFromEnv(ZPaymentsEnvSchema.parse({ SANDBOX_GATEWAY_DELAY_MS: '150' })),
    ).toEqual({ kind: 'sandbox', delayMs: 150 });
  });

  it('is Authorize.Net when its three keys are set, against the production endpoints unless told otherwise', () => {
    expect(paymentsConfigFromEnv(ZPaymentsEnvSchema.parse(KEYS))).toEqual({
      kind: 'authorize-net',
      endpoint: AUTHORIZE_NET_ENDPOINTS.production,
      apiLoginId: 'login',
      transactionKey: 'secret-key',
      clientKey: 'client-key',
      acceptJsUrl: ACCEPT_JS_URLS.production,
      timeoutMs: 20_000,
      validationMode: 'testMode',
    });
    const sandboxAccount = ZPaymentsEnvSchema.parse({
      ...KEYS,
      AUTHORIZE_NET_ENDPOINT: AUTHORIZE_NET_ENDPOINTS.sandbox,
      AUTHORIZE_NET_ACCEPT_JS_URL: ACCEPT_JS_URLS.sandbox,
      AUTHORIZE_NET_TIMEOUT_MS: '5000',
      AUTHORIZE_NET_VALIDATION_MODE: 'liveMode',
    });
    expect(paymentsConfigFromEnv(sandboxAccount)).toMatchObject({
      endpoint: 'https://apitest.authorize.net/xml/v1/request.api',
      acceptJsUrl: 'https://jstest.authorize.net/v1/Accept.js',
      timeoutMs: 5000,
      validationMode: 'liveMode',
    });
  });

  it('wants the three Authorize.Net keys together', () => {
    expect(issues({ AUTHORIZE_NET_API_LOGIN_ID: 'login' })).toEqual([
      'AUTHORIZE_NET_TRANSACTION_KEY: AUTHORIZE_NET_API_LOGIN_ID, AUTHORIZE_NET_TRANSACTION_KEY, AUTHORIZE_NET_CLIENT_KEY are set together or not at all',
    ]);
    expect(issues({ ...KEYS, AUTHORIZE_NET_VALIDATION_MODE: 'sometimes' })).toHaveLength(1);
  });

  it('refuses the sandbox gateway in production unless sandboxes are allowed (DECISIONS R8)', () => {
    expect(issues({ APP_ENV: 'production' })).toEqual([
      expect.stringMatching(/^AUTHORIZE_NET_API_LOGIN_ID: is required in production/),
    ]);
    expect(issues({ APP_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true' })).toEqual([]);
    expect(issues({ APP_ENV: 'production', ...KEYS })).toEqual([]);
  });

  it('builds the gateway the configuration names', () => {
    const db = {} as Database;
    const now = () => new Date();
    expect(createPaymentGateway({ config: { kind: 'sandbox', delayMs: 0 }, db, now }).kind).toBe(
      'sandbox',
    );
    const authorizeNet = createPaymentGateway({
      config: paymentsConfigFromEnv(ZPaymentsEnvSchema.parse(KEYS)),
      db,
      now,
    });
    expect(authorizeNet.kind).toBe('authorize-net');
  });
});
