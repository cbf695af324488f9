import { z } from 'zod';

/**
 * Carfax configuration (issue 8, DECISIONS R8): the real Carfax authorization server when its
 * six settings are set (together or not at all), the embedded sandbox otherwise.
 */
export const CARFAX_KEYS = [
  'CARFAX_CLIENT_ID',
  'CARFAX_CLIENT_SECRET',
  'CARFAX_AUTHORIZE_URL',
  'CARFAX_TOKEN_URL',
  'CARFAX_REVOKE_URL',
  'CARFAX_LOGOUT_URL',
] as const;

const httpsUrl = z.url({ protocol: /^https?$/ });

export const CARFAX_ENV_SHAPE = {
  CARFAX_CLIENT_ID: z.string().min(1).optional(),
  CARFAX_CLIENT_SECRET: z.string().min(1).optional(),
  CARFAX_AUTHORIZE_URL: httpsUrl.optional(),
  CARFAX_TOKEN_URL: httpsUrl.optional(),
  CARFAX_REVOKE_URL: httpsUrl.optional(),
  CARFAX_LOGOUT_URL: httpsUrl.optional(),
  CARFAX_SCOPE: z.string().min(1).default('offline_access'),
  CARFAX_AUDIENCE: z.string().min(1).optional(),
  CARFAX_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
};

type CarfaxEnv = z.output<z.ZodObject<typeof CARFAX_ENV_SHAPE>>;

export type CarfaxConfig =
  | { kind: 'sandbox' }
  | {
      kind: 'carfax';
      clientId: string;
      clientSecret: string;
      authorizeUrl: string;
      tokenUrl: string;
      revokeUrl: string;
      logoutUrl: string;
      scope: string;
      audience: string | undefined;
      timeoutMs: number;
    };

export function checkCarfaxEnv(
  env: CarfaxEnv & { APP_ENV?: string; ALLOW_SANDBOX_IN_PRODUCTION?: boolean },
  ctx: z.RefinementCtx,
): void {
  const set = CARFAX_KEYS.filter((key) => Boolean(env[key]));
  if (set.length > 0 && set.length < CARFAX_KEYS.length) {
    ctx.addIssue({
      code: 'custom',
      path: [CARFAX_KEYS.find((key) => !env[key]) ?? CARFAX_KEYS[0]],
      message: `${CARFAX_KEYS.join(', ')} are set together or not at all`,
    });
  }
  if (env.APP_ENV === 'production' && set.length === 0 && !env.ALLOW_SANDBOX_IN_PRODUCTION) {
    ctx.addIssue({
      code: 'custom',
      path: ['CARFAX_CLIENT_ID'],
      message:
        'is required in production (the Carfax sandbox is a sandbox; set ALLOW_SANDBOX_IN_PRODUCTION=true to allow it)',
    });
  }
}

export function carfaxConfigFromEnv(env: CarfaxEnv): CarfaxConfig {
  const {
    CARFAX_CLIENT_ID: clientId,
    CARFAX_CLIENT_SECRET: clientSecret,
    CARFAX_AUTHORIZE_URL: authorizeUrl,
    CARFAX_TOKEN_URL: tokenUrl,
    CARFAX_REVOKE_URL: revokeUrl,
    CARFAX_LOGOUT_URL: logoutUrl,
  } = env;
  if (!clientId || !clientSecret || !authorizeUrl || !tokenUrl || !revokeUrl || !logoutUrl) {
    return { kind: 'sandbox' };
  }
  return {
    kind: 'carfax',
    clientId,
    clientSecret,
    authorizeUrl,
    tokenUrl,
    revokeUrl,
    logoutUrl,
    scope: env.CARFAX_SCOPE,
    audience: env.CARFAX_AUDIENCE,
    timeoutMs: env.CARFAX_TIMEOUT_MS,
  };
}
