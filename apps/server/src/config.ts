import { isIP } from 'node:net';
import { z } from 'zod';
import {
  checkPaymentsEnv,
  PAYMENTS_ENV_SHAPE,
  paymentsConfigFromEnv,
  type PaymentsConfig,
} from './adapters/payments/payments-config.ts';
import {
  CARFAX_ENV_SHAPE,
  carfaxConfigFromEnv,
  checkCarfaxEnv,
  type CarfaxConfig,
} from './adapters/carfax/carfax-config.ts';
import {
  AUTOCHECK_ENV_SHAPE,
  autoCheckConfigFromEnv,
  checkAutoCheckEnv,
  type AutoCheckConfig,
} from './adapters/autocheck/autocheck-config.ts';

/** R14's invoices: the number's prefix, the seller printed on them and where checks go. */
export interface InvoicingConfig {
  prefix: string;
  seller: { name: string; lines: string[] };
  remitTo: { payee: string; lines: string[] };
}

/** The demo's seller and remit-to address; a deployment sets its own (INVOICE_*). */
export const DEFAULT_INVOICING: InvoicingConfig = {
  prefix: 'DP',
  seller: {
    name: 'DealerPass, Inc.',
    lines: ['100 Demo Way, Suite 200', 'Springfield, IL 62701', 'United States'],
  },
  remitTo: {
    payee: 'DealerPass, Inc.',
    lines: ['Attn: Accounts Receivable', 'PO Box 1000', 'Springfield, IL 62705', 'United States'],
  },
};

/**
 * Every setting DealerPass reads from its environment, validated once at start.
 * A wrong value stops the server with a message that names the variable (README, "Configuration").
 */

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * Whose X-Forwarded-* headers are believed (docs/decisions/030): `false` nobody's; or the
 * addresses and CIDR ranges of the proxies in front of the server (and proxy-addr's names
 * loopback, linklocal, uniquelocal). The client's address is then the last one a listed proxy
 * did not add. A hop count is refused: it believes whoever reaches the server directly, and
 * Fastify 5 ignores it (trusting nobody, so every client would share the balancer's address).
 * `true` believes every hop, so behind a proxy that appends to X-Forwarded-For a client names its
 * own address: kept for tests without a proxy, refused in production (issue 24, item 5).
 */
export type TrustProxy = boolean | string[];

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const trustProxySetting = z.string().transform((value, ctx): TrustProxy => {
  const text = value.trim().toLowerCase();
  if (['false', 'no', '0'].includes(text)) return false;
  if (['true', 'yes'].includes(text)) return true;
  if (/^\d+$/.test(text)) {
    ctx.addIssue({
      code: 'custom',
      message:
        'is a number of hops, which would believe any client that reaches the server directly: set the addresses or CIDR ranges of the proxies in front of the server (e.g. 10.0.0.5 or 10.0.0.0/8), separated by commas',
    });
    return z.NEVER;
  }
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.every(isProxyAddress)) return entries;
  ctx.addIssue({
    code: 'custom',
    message:
      "must be false, or the proxies' addresses or CIDR ranges (or loopback, linklocal, uniquelocal) separated by commas",
  });
  return z.NEVER;
});

const ZEnvSchema = z
  .object({
    APP_ENV: z.enum(['demo', 'development', 'test', 'production']).default('demo'),
    HOST: z.string().min(1).default('localhost'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[\w.:-]{1,64}$/, 'must be letters, digits and . : _ - (at most 64)')
      .default('dealerpass:'),
    SECRET_KEY: z
      .string()
      .regex(/^[A-Za-z0-9+/=_-]{43,}$/, 'must be at least 32 random bytes, base64-encoded')
      .optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    TRUST_PROXY: trustProxySetting.optional(),
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    MAIL_FROM: z.string().min(3).default('DealerPass <no-reply@dealerpass.example>'),
    SUPPORT_EMAIL: z.email().default('support@dealerpass.example'),
    SUPPORT_PHONE: z.string().min(3).default('1-800-555-0199'),
    COMPANY_NAME: z.string().min(1).default('DealerPass'),
    COMPANY_EMAIL_DOMAIN: z.string().min(3).default('dealerpass.example'),
    LAUNCH_APP_URL: z.url().default('https://app.dealerpass.example/'),
    /** R14's invoices: `{prefix}-{year}-{6 digits}`; the seller and the check's payee and address. */
    INVOICE_PREFIX: z
      .string()
      .regex(/^[A-Z][A-Z0-9]{0,9}$/, 'must be 1 to 10 capital letters or digits, from a letter')
      .default(DEFAULT_INVOICING.prefix),
    INVOICE_SELLER_NAME: z.string().min(1).default(DEFAULT_INVOICING.seller.name),
    /** Address lines separated by `|`. */
    INVOICE_SELLER_ADDRESS: z.string().min(1).default(DEFAULT_INVOICING.seller.lines.join('|')),
    INVOICE_PAYEE: z.string().min(1).default(DEFAULT_INVOICING.remitTo.payee),
    INVOICE_REMIT_TO: z.string().min(1).default(DEFAULT_INVOICING.remitTo.lines.join('|')),
    RECAPTCHA_SITE_KEY: z.string().min(1).optional(),
    RECAPTCHA_SECRET_KEY: z.string().min(1).optional(),
    RECAPTCHA_VERIFY_URL: z.url().default('https://www.google.com/recaptcha/api/siteverify'),
    CAPTCHA_DIFFICULTY: z.coerce.number().int().min(10).max(10_000_000).default(1_500_000),
    CAPTCHA_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(600),
    ALLOW_SANDBOX_IN_PRODUCTION: booleanFlag.default(false),
    OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    STAFF_OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
    STAFF_OIDC_CLIENT_ID: z.string().min(1).optional(),
    STAFF_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    SEED_DEMO_DATA: booleanFlag.optional(),
    /** A JSON file of test-only accounts and staff to seed (docs/decisions/065); test only. */
    TEST_ACCOUNTS_FILE: z.string().min(1).optional(),
    BUSINESS_TIME_ZONE: z
      .string()
      .refine((zone) => {
        try {
          new Intl.DateTimeFormat('en-US', { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      }, 'must be an IANA time zone such as America/New_York')
      .default('America/New_York'),
    BILLING_RUN_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(1440).default(15),
    METRICS_TOKEN: z
      .string()
      .regex(/^[\x21-\x7e]{32,256}$/, 'must be 32 to 256 printable characters without spaces')
      .optional(),
    SECURITY_CONTACT: z
      .string()
      .refine(
        (value) =>
          value
            .split(',')
            .every((uri) =>
              /^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+|tel:\+?[\d-]+)$/.test(uri.trim()),
            ),
        'must be mailto:, https:// or tel: URIs separated by commas',
      )
      .optional(),
    SECURITY_TXT_EXPIRES: z.iso.datetime({ offset: true }).optional(),
    SECURITY_TXT_LANGUAGES: z
      .string()
      .regex(
        /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*(, ?[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*)*$/,
        'must be language tags separated by commas, such as en, es',
      )
      .default('en'),
    CHATWOOT_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    CHATWOOT_WEBSITE_TOKEN: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,100}$/, 'must be the inbox website token')
      .optional(),
    ...PAYMENTS_ENV_SHAPE,
    ...CARFAX_ENV_SHAPE,
    ...AUTOCHECK_ENV_SHAPE,
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.RECAPTCHA_SITE_KEY) !== Boolean(env.RECAPTCHA_SECRET_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.RECAPTCHA_SITE_KEY ? 'RECAPTCHA_SECRET_KEY' : 'RECAPTCHA_SITE_KEY'],
        message: 'RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY are set together or not at all',
      });
    }
    checkPaymentsEnv(env, ctx);
    if (Boolean(env.CHATWOOT_BASE_URL) !== Boolean(env.CHATWOOT_WEBSITE_TOKEN)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.CHATWOOT_BASE_URL ? 'CHATWOOT_WEBSITE_TOKEN' : 'CHATWOOT_BASE_URL'],
        message: 'CHATWOOT_BASE_URL and CHATWOOT_WEBSITE_TOKEN are set together or not at all',
      });
    }
    checkCarfaxEnv(env, ctx);
    checkAutoCheckEnv(env, ctx);
    // docs/decisions/065: accounts with passwords in the repository are for test servers only.
    if (env.TEST_ACCOUNTS_FILE && env.APP_ENV !== 'test') {
      ctx.addIssue({
        code: 'custom',
        path: ['TEST_ACCOUNTS_FILE'],
        message: `is for the tests' servers only (APP_ENV=test), not APP_ENV=${env.APP_ENV}`,
      });
    }
    for (const prefix of ['OIDC', 'STAFF_OIDC'] as const) {
      const names = [`${prefix}_ISSUER`, `${prefix}_CLIENT_ID`, `${prefix}_CLIENT_SECRET`] as const;
      const values = names.map((name) => env[name]);
      if (values.some(Boolean) && !values.every(Boolean)) {
        ctx.addIssue({
          code: 'custom',
          path: [names.find((_, i) => !values[i]) ?? names[0]],
          message: `${names.join(', ')} are set together or not at all`,
        });
      }
    }
    if (env.APP_ENV === 'production') {
      if (!env.SECRET_KEY) {
        ctx.addIssue({
          code: 'custom',
          path: ['SECRET_KEY'],
          message: 'is required in production',
        });
      }
      if (!env.PUBLIC_URL?.startsWith('https://')) {
        ctx.addIssue({
          code: 'custom',
          path: ['PUBLIC_URL'],
          message: 'must be an https URL in production',
        });
      }
      // docs/decisions/030: behind a balancer that appends to X-Forwarded-For, `true` takes the
      // client's own first entry as its address (rate limits, sign-in limits, the log).
      if (env.TRUST_PROXY === true) {
        ctx.addIssue({
          code: 'custom',
          path: ['TRUST_PROXY'],
          message:
            'may not be true in production (it believes any X-Forwarded-For a client sends): set the addresses or CIDR ranges of the proxies in front of the server',
        });
      }
      // DECISIONS R8: a production server refuses the embedded sandboxes unless explicitly allowed.
      if (!env.SMTP_URL && !env.ALLOW_SANDBOX_IN_PRODUCTION) {
        ctx.addIssue({
          code: 'custom',
          path: ['SMTP_URL'],
          message:
            'is required in production (the embedded mailbox is a sandbox; set ALLOW_SANDBOX_IN_PRODUCTION=true to allow it)',
        });
      }
    }
  });

export type Env = z.input<typeof ZEnvSchema>;

/** Every variable the server reads (the README's table and .env.example list each one). */
export const ENV_VARIABLES: readonly string[] = Object.keys(ZEnvSchema.shape);

export interface Config {
  env: 'demo' | 'development' | 'test' | 'production';
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * Redis shared by every instance (R13): rate limits and sign-in failures are counted there;
   * null keeps them in this process (rate limits) and in the database (sign-in failures).
   */
  redis: { url: string; keyPrefix: string } | null;
  secretKey: string | undefined;
  logLevel: string;
  /** Whose X-Forwarded-* headers are believed (docs/decisions/030); Fastify's trustProxy. */
  trustProxy: TrustProxy;
  mail: { smtpUrl: string | undefined; from: string; supportAddress: string };
  company: { name: string; emailDomain: string; supportPhone: string; launchAppUrl: string };
  /** R14's invoices: the number's prefix, the seller printed on them and where checks go. */
  invoicing: InvoicingConfig;
  captcha:
    | { kind: 'altcha'; difficulty: number; ttlSeconds: number }
    | {
        kind: 'recaptcha';
        siteKey: string;
        secretKey: string;
        verifyUrl: string;
        ttlSeconds: number;
      };
  /** The embedded OpenID provider by default; an external one when configured (DECISIONS R6). */
  identity:
    | { kind: 'embedded' }
    | { kind: 'external'; issuer: string; clientId: string; clientSecret: string };
  /**
   * Staff identities (R12, docs/decisions/026): the embedded provider's staff client by default,
   * an external provider of their own when configured.
   */
  staffIdentity:
    | { kind: 'embedded' }
    | { kind: 'external'; issuer: string; clientId: string; clientSecret: string };
  /** Seed the demo accounts into an empty database at start (demo and development by default). */
  seedDemoData: boolean;
  /**
   * The test-only accounts and staff to seed with the demo data (services/demo/read-test-accounts.ts,
   * docs/decisions/065): a JSON file's path, accepted with APP_ENV=test only; null for none.
   */
  testAccountsFile: string | null;
  /** The payment gateway (DECISIONS R5): the embedded sandbox, or Authorize.Net when configured. */
  payments: PaymentsConfig;
  /** Carfax (issue 8): the embedded OAuth 2.0 sandbox, or the configured Carfax endpoints. */
  carfax: CarfaxConfig;
  /** AutoCheck (issue 8): the embedded sandbox, or the configured credential check. */
  autoCheck: AutoCheckConfig;
  billing: {
    /** Business dates (bill dates, receipt dates) are in this zone (DECISIONS R4). */
    timeZone: string;
    /** How often the server runs the billing run by itself; 0 turns the schedule off. */
    runIntervalMinutes: number;
  };
  /** Sandboxes in use (DECISIONS R8): announced in the UI with a ribbon. */
  sandboxes: string[];
  /** Whether the development mailbox is served (R8: never in production). */
  devMailbox: boolean;
  /** The live chat widget (DECISIONS R8); null shows none. */
  chat: { kind: 'chatwoot'; baseUrl: string; websiteToken: string } | null;
  /**
   * `/metrics` (docs/decisions/023): served when a bearer token is configured, and openly on a
   * demo, development or test server without one; a production server without a token has none.
   */
  metrics: { enabled: boolean; token: string | undefined };
  /** The OpenAPI description and its reference UI at /api/docs: never on a production server. */
  apiDocs: boolean;
  /**
   * `/.well-known/security.txt` (RFC 9116, issue 27 item 6): where to report a vulnerability
   * (SECURITY_CONTACT, by default the support address), until when the file holds, in which languages.
   */
  securityTxt: { contact: string[]; expires: string; preferredLanguages: string };
}

/**
 * How long security.txt holds when SECURITY_TXT_EXPIRES is unset, counted from the start: RFC 9116
 * §2.5.5 recommends less than a year, so a reader never trusts a stale file for long.
 */
const SECURITY_TXT_DEFAULT_DAYS = 180;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(environment: Record<string, string | undefined> = process.env): Config {
  // Empty strings count as unset, as they do in most deployment tools.
  const raw = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = ZEnvSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.') || 'environment';
      const value = typeof issue.path[0] === 'string' ? raw[issue.path[0]] : undefined;
      return `  ${name}${value === undefined ? '' : ` (got "${redact(issue.path[0], value)}")`}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  const sandboxes: string[] = [];
  if (!env.SMTP_URL) sandboxes.push('mailbox');
  const payments = paymentsConfigFromEnv(env);
  if (payments.kind === 'sandbox') sandboxes.push('payments');
  const carfax = carfaxConfigFromEnv(env);
  if (carfax.kind === 'sandbox') sandboxes.push('carfax');
  const autoCheck = autoCheckConfigFromEnv(env);
  if (autoCheck.kind === 'sandbox') sandboxes.push('autocheck');

  return {
    env: env.APP_ENV,
    host: env.HOST,
    port: env.PORT,
    publicUrl,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    redis: env.REDIS_URL ? { url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX } : null,
    secretKey: env.SECRET_KEY,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY ?? false,
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, supportAddress: env.SUPPORT_EMAIL },
    company: {
      name: env.COMPANY_NAME,
      emailDomain: env.COMPANY_EMAIL_DOMAIN,
      supportPhone: env.SUPPORT_PHONE,
      launchAppUrl: env.LAUNCH_APP_URL,
    },
    invoicing: {
      prefix: env.INVOICE_PREFIX,
      seller: { name: env.INVOICE_SELLER_NAME, lines: addressLines(env.INVOICE_SELLER_ADDRESS) },
      remitTo: { payee: env.INVOICE_PAYEE, lines: addressLines(env.INVOICE_REMIT_TO) },
    },
    captcha:
      env.RECAPTCHA_SITE_KEY && env.RECAPTCHA_SECRET_KEY
        ? {
            kind: 'recaptcha',
            siteKey: env.RECAPTCHA_SITE_KEY,
            secretKey: env.RECAPTCHA_SECRET_KEY,
            verifyUrl: env.RECAPTCHA_VERIFY_URL,
            ttlSeconds: env.CAPTCHA_TTL_SECONDS,
          }
        : {
            kind: 'altcha',
            difficulty: env.CAPTCHA_DIFFICULTY,
            ttlSeconds: env.CAPTCHA_TTL_SECONDS,
          },
    identity:
      env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
        ? {
            kind: 'external',
            issuer: env.OIDC_ISSUER,
            clientId: env.OIDC_CLIENT_ID,
            clientSecret: env.OIDC_CLIENT_SECRET,
          }
        : { kind: 'embedded' },
    staffIdentity:
      env.STAFF_OIDC_ISSUER && env.STAFF_OIDC_CLIENT_ID && env.STAFF_OIDC_CLIENT_SECRET
        ? {
            kind: 'external',
            issuer: env.STAFF_OIDC_ISSUER,
            clientId: env.STAFF_OIDC_CLIENT_ID,
            clientSecret: env.STAFF_OIDC_CLIENT_SECRET,
          }
        : { kind: 'embedded' },
    payments,
    carfax,
    autoCheck,
    billing: {
      timeZone: env.BUSINESS_TIME_ZONE,
      runIntervalMinutes: env.BILLING_RUN_INTERVAL_MINUTES,
    },
    seedDemoData: env.SEED_DEMO_DATA ?? (env.APP_ENV === 'demo' || env.APP_ENV === 'development'),
    testAccountsFile: env.TEST_ACCOUNTS_FILE ?? null,
    sandboxes,
    // R8: the mailbox shows every mail to every visitor, so only a demo, development or test
    // server shows it; a production server keeps unsent mail but never serves it, whatever flag is set.
    devMailbox: sandboxes.includes('mailbox') && env.APP_ENV !== 'production',
    chat:
      env.CHATWOOT_BASE_URL && env.CHATWOOT_WEBSITE_TOKEN
        ? {
            kind: 'chatwoot',
            baseUrl: env.CHATWOOT_BASE_URL.replace(/\/$/, ''),
            websiteToken: env.CHATWOOT_WEBSITE_TOKEN,
          }
        : null,
    metrics: {
      enabled: env.APP_ENV !== 'production' || env.METRICS_TOKEN !== undefined,
      token: env.METRICS_TOKEN,
    },
    apiDocs: env.APP_ENV !== 'production',
    securityTxt: {
      contact: (env.SECURITY_CONTACT ?? `mailto:${env.SUPPORT_EMAIL}`)
        .split(',')
        .map((uri) => uri.trim()),
      expires: new Date(
        env.SECURITY_TXT_EXPIRES ?? Date.now() + SECURITY_TXT_DEFAULT_DAYS * 86_400_000,
      ).toISOString(),
      preferredLanguages: env.SECURITY_TXT_LANGUAGES.split(',')
        .map((tag) => tag.trim())
        .join(', '),
    },
  };
}

function redact(name: unknown, value: string): string {
  return typeof name === 'string' && /SECRET|KEY|PASSWORD|TOKEN|URL/.test(name) ? '***' : value;
}

/** `line one|line two` as trimmed, non-empty lines. */
function addressLines(text: string): string[] {
  return text
    .split('|')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}
