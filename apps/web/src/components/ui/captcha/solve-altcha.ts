/** A challenge as GET /api/captcha/challenge issues it (ALTCHA's SHA-256 protocol). */
export interface AltchaChallenge {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
}

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

/** The instant the challenge stops being accepted, from the `expires` parameter in its salt. */
export function altchaExpiry(challenge: AltchaChallenge): number | null {
  const query = challenge.salt.split('?')[1];
  const expires = query ? new URLSearchParams(query).get('expires') : null;
  return expires ? Number(expires) * 1000 : null;
}
