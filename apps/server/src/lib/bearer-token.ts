import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * What the request's `Authorization` says of a bearer token: `valid` (the expected one), `absent`
 * (no bearer credentials at all: no header, or another scheme) or `invalid` (a bearer token that
 * is not the expected one). RFC 6750 §3 answers the two refusals differently: only `invalid`
 * carries `error="invalid_token"`. Compared as SHA-256 digests, so the comparison takes as long
 * whatever the token sent and its length. No expected token: never `valid`.
 */
export function checkBearerToken(
  request: FastifyRequest,
  expected: string | null | undefined,
): 'valid' | 'absent' | 'invalid' {
  const header = request.headers.authorization ?? '';
  // The scheme is case-insensitive (RFC 9110 §11.1); `Bearer` alone or with blanks is no token.
  if (!/^bearer(\s|$)/i.test(header)) return 'absent';
  const match = /^bearer (\S+)$/i.exec(header);
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const equal = timingSafeEqual(digest(match?.[1] ?? ''), digest(expected ?? ''));
  return expected && match && equal ? 'valid' : 'invalid';
}
