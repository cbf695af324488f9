/**
 * The OAuth `state` value for the Carfax sign-in (000 §4, 001 §4, §9): 64 characters of base
 * 36, from a random source the caller supplies (e.g. `crypto.getRandomValues`).
 */

export const STATE_LENGTH = 64;
export const STATE_PATTERN = /^[0-9a-z]{64}$/;
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
/** The largest multiple of 36 that fits a byte; bytes at or above it are dropped (no bias). */
const UNBIASED_LIMIT = 252;

/** Fills and returns `n` random bytes. */
export type TRandomBytes = (n: number) => Uint8Array;

export function randomState(randomBytes: TRandomBytes, length = STATE_LENGTH): string {
  let out = '';
  while (out.length < length) {
    const bytes = randomBytes(length);
    if (bytes.length === 0) throw new RangeError('the random source returned no bytes');
    for (const byte of bytes) {
      if (byte < UNBIASED_LIMIT) out += ALPHABET[byte % 36];
      if (out.length === length) break;
    }
  }
  return out;
}

export function isValidState(value: unknown): value is string {
  return typeof value === 'string' && STATE_PATTERN.test(value);
}
