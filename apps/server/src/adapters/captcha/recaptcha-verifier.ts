import { createHash } from 'node:crypto';
import type { CaptchaVerifier } from './captcha-verifier.ts';

/**
 * Google reCAPTCHA (v2 checkbox) when RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY are set: the
 * token is checked server-to-server at the siteverify endpoint.
 */
export function createRecaptchaVerifier(options: {
  siteKey: string;
  secretKey: string;
  verifyUrl: string;
  ttlSeconds: number;
  now: () => Date;
  fetch?: typeof fetch;
}): CaptchaVerifier {
  const doFetch = options.fetch ?? fetch;
  return {
    kind: 'recaptcha',
    publicConfig: () => ({ kind: 'recaptcha', siteKey: options.siteKey }),
    async verify(token, remoteIp) {
      let response: Response;
      try {
        response = await doFetch(options.verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            secret: options.secretKey,
            response: token,
            remoteip: remoteIp,
          }),
          signal: AbortSignal.timeout(5000),
        });
      } catch {
        return { ok: false, reason: 'verification service unreachable' };
      }
      if (!response.ok)
        return { ok: false, reason: `verification service answered ${response.status}` };
      const body = (await response.json().catch(() => null)) as { success?: unknown } | null;
      if (body?.success !== true) return { ok: false, reason: 'rejected by verification service' };
      return {
        ok: true,
        replayKey: `recaptcha:${createHash('sha256').update(token).digest('hex')}`,
        expiresAt: new Date(options.now().getTime() + options.ttlSeconds * 1000),
      };
    },
  };
}
