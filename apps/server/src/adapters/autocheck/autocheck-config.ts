import { z } from 'zod';

/**
 * AutoCheck configuration (issue 8, DECISIONS R8): the configured credential-check endpoint when
 * its two settings are set (together or not at all), the embedded sandbox otherwise.
 */
export const AUTOCHECK_KEYS = ['AUTOCHECK_VERIFY_URL', 'AUTOCHECK_API_KEY'] as const;

export const AUTOCHECK_ENV_SHAPE = {
  AUTOCHECK_VERIFY_URL: z.url({ protocol: /^https?$/ }).optional(),
  AUTOCHECK_API_KEY: z.string().min(1).optional(),
  AUTOCHECK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
};

type AutoCheckEnv = z.output<z.ZodObject<typeof AUTOCHECK_ENV_SHAPE>>;

export type AutoCheckConfig =
  { kind: 'sandbox' } | { kind: 'autocheck'; verifyUrl: string; apiKey: string; timeoutMs: number };

export function checkAutoCheckEnv(
  env: AutoCheckEnv & { APP_ENV?: string; ALLOW_SANDBOX_IN_PRODUCTION?: boolean },
  ctx: z.RefinementCtx,
): void {
  const set = AUTOCHECK_KEYS.filter((key) => Boolean(env[key]));
  if (set.length === 1) {
    ctx.addIssue({
      code: 'custom',
      path: [AUTOCHECK_KEYS.find((key) => !env[key]) ?? AUTOCHECK_KEYS[0]],
      message: `${AUTOCHECK_KEYS.join(' and ')} are set together or not at all`,
    });
  }
  if (env.APP_ENV === 'production' && set.length === 0 && !env.ALLOW_SANDBOX_IN_PRODUCTION) {
    ctx.addIssue({
      code: 'custom',
      path: ['AUTOCHECK_VERIFY_URL'],
      message:
        'is required in production (the AutoCheck sandbox is a sandbox; set ALLOW_SANDBOX_IN_PRODUCTION=true to allow it)',
    });
  }
}

export function autoCheckConfigFromEnv(env: AutoCheckEnv): AutoCheckConfig {
  if (!env.AUTOCHECK_VERIFY_URL || !env.AUTOCHECK_API_KEY) return { kind: 'sandbox' };
  return {
    kind: 'autocheck',
    verifyUrl: env.AUTOCHECK_VERIFY_URL,
    apiKey: env.AUTOCHECK_API_KEY,
    timeoutMs: env.AUTOCHECK_TIMEOUT_MS,
  };
}
