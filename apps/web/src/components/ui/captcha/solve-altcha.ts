import { sha256Words } from './sha256.ts';

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

/** Hashes between two yields to the page: a few milliseconds of work on a phone. */
const BATCH = 5_000;

const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A SHA-256 hex digest as the eight words sha256Words writes, or null if it is not one. */
function digestWords(hex: string): Int32Array | null {
  if (!/^[0-9a-f]{64}$/i.test(hex)) return null;
  return Int32Array.from({ length: 8 }, (_, i) => parseInt(hex.slice(i * 8, i * 8 + 8), 16) | 0);
}

/**
 * Finds the number n with sha256(salt + n) = challenge, yielding to the page every BATCH digests
 * so it stays responsive, and returns the base64 payload the server verifies. Null if there is
 * none. The digests are ours, synchronous (sha256.ts, docs/decisions/029).
 */
export async function solveAltcha(
  challenge: AltchaChallenge,
  signal?: AbortSignal,
): Promise<string | null> {
  if (challenge.algorithm !== 'SHA-256')
    throw new Error(`unsupported captcha algorithm ${challenge.algorithm}`);
  const max = challenge.maxnumber ?? 1_000_000;
  const target = digestWords(challenge.challenge);
  if (!target) return null;
  const prefix = new TextEncoder().encode(challenge.salt);
  // The salt, then the number's decimal digits (at most 16 for a safe integer).
  const message = new Uint8Array(prefix.length + 16);
  message.set(prefix);
  const digest = new Int32Array(8);
  for (let n = 0; n <= max; n++) {
    if (n % BATCH === 0) {
      signal?.throwIfAborted();
      if (n > 0) await yieldToPage();
    }
    const digits = String(n);
    for (let i = 0; i < digits.length; i++) message[prefix.length + i] = digits.charCodeAt(i);
    sha256Words(message, prefix.length + digits.length, digest);
    if (
      digest[0] === target[0] &&
      digest[1] === target[1] &&
      digest[2] === target[2] &&
      digest[3] === target[3] &&
      digest[4] === target[4] &&
      digest[5] === target[5] &&
      digest[6] === target[6] &&
      digest[7] === target[7]
    ) {
      const payload = {
        algorithm: challenge.algorithm,
        challenge: challenge.challenge,
        number: n,
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
