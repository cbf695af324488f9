import { createHash } from 'node:crypto';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import type { CaptchaVerifier } from './captcha-verifier.ts';

export interface AltchaChallenge {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
  /**
   * Seconds the challenge lives from now. The browser times the expiry from when it received the
   * challenge, so a browser clock that differs from ours does not expire it early (issue 14).
   */
  expiresInSeconds: number;
}

/**
 * Self-hosted proof-of-work captcha (ALTCHA's SHA-256 protocol): we issue an HMAC-signed challenge
 * that expires, the browser finds the number, we check the signature, the work and the expiry.
 */
export function createAltchaVerifier(options: {
  hmacKey: string;
  difficulty: number;
  ttlSeconds: number;
  now: () => Date;
}): CaptchaVerifier & { createChallenge(): Promise<AltchaChallenge> } {
  return {
    kind: 'altcha',
    publicConfig: () => ({ kind: 'altcha', challengeUrl: '/api/captcha/challenge' }),
    async createChallenge() {
      const challenge = await createChallenge({
        hmacKey: options.hmacKey,
        maxNumber: options.difficulty,
        expires: new Date(options.now().getTime() + options.ttlSeconds * 1000),
      });
      return { ...challenge, expiresInSeconds: options.ttlSeconds };
    },
    async verify(token) {
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
      } catch {
        return { ok: false, reason: 'malformed payload' };
      }
      if (!isPayload(payload)) return { ok: false, reason: 'malformed payload' };
      const expires = Number(extractParams(payload).expires);
      if (!Number.isFinite(expires)) return { ok: false, reason: 'challenge without expiry' };
      const expiresAt = new Date(expires * 1000);
      if (expiresAt <= options.now()) return { ok: false, reason: 'expired' };
      // Expiry is checked above against our own clock, so tests can move time.
      const valid = await verifySolution(payload, options.hmacKey, false);
      if (!valid) return { ok: false, reason: 'wrong solution or signature' };
      return { ok: true, replayKey: `altcha:${hashOf(payload.signature)}`, expiresAt };
    },
  };
}

function isPayload(value: unknown): value is {
  algorithm: 'SHA-256';
  challenge: string;
  number: number;
  salt: string;
  signature: string;
} {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    v.algorithm === 'SHA-256' &&
    typeof v.challenge === 'string' &&
    typeof v.number === 'number' &&
    typeof v.salt === 'string' &&
    typeof v.signature === 'string'
  );
}

function hashOf(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
