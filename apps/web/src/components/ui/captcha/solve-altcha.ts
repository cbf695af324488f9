/** A challenge as GET /api/captcha/challenge issues it (ALTCHA's SHA-256 protocol). */
export interface AltchaChallenge {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
  /** Seconds the challenge lives from when the server issued it. */
  expiresInSeconds?: number;
}

/** setTimeout fires at once for any delay above this (a signed 32-bit count of milliseconds). */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

const BATCH = 256;

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Finds the number n with sha256(salt + n) = challenge, a batch of digests at a time so the page
 * stays responsive, and returns the base64 payload the server verifies. Null if there is none.
 */
export async function solveAltcha(
  challenge: AltchaChallenge,
  signal?: AbortSignal,
): Promise<string | null> {
  if (challenge.algorithm !== 'SHA-256')
    throw new Error(`unsupported captcha algorithm ${challenge.algorithm}`);
  const max = challenge.maxnumber ?? 1_000_000;
  for (let start = 0; start <= max; start += BATCH) {
    signal?.throwIfAborted();
    const numbers = Array.from({ length: Math.min(BATCH, max - start + 1) }, (_, i) => start + i);
    const hashes = await Promise.all(numbers.map((n) => sha256Hex(`${challenge.salt}${n}`)));
    const index = hashes.indexOf(challenge.challenge);
    if (index >= 0) {
      const payload = {
        algorithm: challenge.algorithm,
        challenge: challenge.challenge,
        number: numbers[index],
        salt: challenge.salt,
        signature: challenge.signature,
      };
      return btoa(JSON.stringify(payload));
    }
  }
  return null;
}

/**
 * How long after `receivedAt` (a `performance.now()` reading taken when the challenge arrived) the
 * solved captcha should be treated as expired, leaving `marginMs` for the form's request; null if
 * the challenge does not expire. The lifetime is relative, never compared with the browser's
 * wall clock, which may differ from the server's by minutes or days; the result is always a delay
 * setTimeout can honour.
 */
export function altchaExpiryDelay(
  challenge: AltchaChallenge,
  receivedAt: number,
  now: number,
  marginMs: number,
): number | null {
  if (challenge.expiresInSeconds === undefined) return null;
  const remaining = challenge.expiresInSeconds * 1000 - (now - receivedAt) - marginMs;
  return Math.min(MAX_TIMER_DELAY_MS, Math.max(0, remaining));
}
