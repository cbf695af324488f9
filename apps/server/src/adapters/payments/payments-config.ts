import { z } from 'zod';

/**
 * The payment gateway's settings (docs/decisions/010-payment-gateways.md). Authorize.Net is used
 * when its three keys are set, as reCAPTCHA is when its keys are; the sandbox otherwise. The
 * lead merges PAYMENTS_ENV_SHAPE and checkPaymentsEnv into the server's environment schema.
 */

export const AUTHORIZE_NET_ENDPOINTS = {
  production: 'https://api.authorize.net/xml/v1/request.api',
  sandbox: 'https://apitest.authorize.net/xml/v1/request.api',
} as const;
export const ACCEPT_JS_URLS = {
  production: 'https://js.authorize.net/v1/Accept.js',
  sandbox: 'https://jstest.authorize.net/v1/Accept.js',
} as const;

/** How Authorize.Net checks a new card when a profile is made: `testMode` checks the fields only. */
export const VALIDATION_MODES = ['none', 'testMode', 'liveMode'] as const;

export const ZAuthorizeNetConfigSchema = z.object({
  /** The one JSON endpoint every request is posted to. */
  endpoint: z.url({ protocol: /^https?$/ }),
  apiLoginId: z.string().min(1),
  transactionKey: z.string().min(1),
  /** The public client key Accept.js sends with the card from the browser. */
  clientKey: z.string().min(1),
  acceptJsUrl: z.url({ protocol: /^https?$/ }),
  /** Per request; past it the call fails as retryable and is retried with the same key. */
  timeoutMs: z.number().int().min(100).max(120_000).default(20_000),
  validationMode: z.enum(VALIDATION_MODES).default('testMode'),
});
export type AuthorizeNetConfig = z.output<typeof ZAuthorizeNetConfigSchema>;

export type PaymentsConfig =
  { kind: 'sandbox'; delayMs: number } | ({ kind: 'authorize-net' } & AuthorizeNetConfig);

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** The environment variables, to spread into the server's environment schema. */
export const PAYMENTS_ENV_SHAPE = {
  /** Milliseconds each sandbox charge takes. */
  SANDBOX_GATEWAY_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  AUTHORIZE_NET_API_LOGIN_ID: z.string().min(1).optional(),
  AUTHORIZE_NET_TRANSACTION_KEY: z.string().min(1).optional(),
  AUTHORIZE_NET_CLIENT_KEY: z.string().min(1).optional(),
  AUTHORIZE_NET_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .default(AUTHORIZE_NET_ENDPOINTS.production),
  AUTHORIZE_NET_ACCEPT_JS_URL: z.url({ protocol: /^https?$/ }).default(ACCEPT_JS_URLS.production),
  AUTHORIZE_NET_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  AUTHORIZE_NET_VALIDATION_MODE: z.enum(VALIDATION_MODES).default('testMode'),
};

const AUTHORIZE_NET_KEYS = [
  'AUTHORIZE_NET_API_LOGIN_ID',
  'AUTHORIZE_NET_TRANSACTION_KEY',
  'AUTHORIZE_NET_CLIENT_KEY',
] as const;

type PaymentsEnv = z.output<z.ZodObject<typeof PAYMENTS_ENV_SHAPE>>;

/**
 * For the server's superRefine: the three Authorize.Net keys come together or not at all, and a
 * production server refuses the sandbox gateway unless sandboxes are allowed (DECISIONS R8).
 */
export function checkPaymentsEnv(
  env: PaymentsEnv & { APP_ENV?: string; ALLOW_SANDBOX_IN_PRODUCTION?: boolean },
  ctx: z.RefinementCtx,
): void {
  const set = AUTHORIZE_NET_KEYS.filter((key) => Boolean(env[key]));
  if (set.length > 0 && set.length < AUTHORIZE_NET_KEYS.length) {
    ctx.addIssue({
      code: 'custom',
      path: [AUTHORIZE_NET_KEYS.find((key) => !env[key]) ?? AUTHORIZE_NET_KEYS[0]],
      message: `${AUTHORIZE_NET_KEYS.join(', ')} are set together or not at all`,
    });
  }
  if (env.APP_ENV === 'production' && set.length === 0 && !env.ALLOW_SANDBOX_IN_PRODUCTION) {
    ctx.addIssue({
      code: 'custom',
      path: ['AUTHORIZE_NET_API_LOGIN_ID'],
      message:
        'is required in production (the sandbox gateway is a sandbox; set ALLOW_SANDBOX_IN_PRODUCTION=true to allow it)',
    });
  }
}

/** The payments variables on their own, with their checks (tests; the server merges the shape). */
export const ZPaymentsEnvSchema = z
  .object({
    ...PAYMENTS_ENV_SHAPE,
    APP_ENV: z.string().optional(),
    ALLOW_SANDBOX_IN_PRODUCTION: booleanFlag.default(false),
  })
  .superRefine(checkPaymentsEnv);

export function paymentsConfigFromEnv(env: PaymentsEnv): PaymentsConfig {
  if (!env.AUTHORIZE_NET_API_LOGIN_ID || !env.AUTHORIZE_NET_TRANSACTION_KEY) {
    return { kind: 'sandbox', delayMs: env.SANDBOX_GATEWAY_DELAY_MS };
  }
  return {
    kind: 'authorize-net',
    ...ZAuthorizeNetConfigSchema.parse({
      endpoint: env.AUTHORIZE_NET_ENDPOINT,
      apiLoginId: env.AUTHORIZE_NET_API_LOGIN_ID,
      transactionKey: env.AUTHORIZE_NET_TRANSACTION_KEY,
      clientKey: env.AUTHORIZE_NET_CLIENT_KEY,
      acceptJsUrl: env.AUTHORIZE_NET_ACCEPT_JS_URL,
      timeoutMs: env.AUTHORIZE_NET_TIMEOUT_MS,
      validationMode: env.AUTHORIZE_NET_VALIDATION_MODE,
    }),
  };
}
