import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * Whether the request carries `Authorization: Bearer <expected>`. Compared as SHA-256 digests, so
 * the comparison takes as long whatever the token sent and its length. No expected token: false.
 */
export function hasBearerToken(
  request: FastifyRequest,
  expected: string | null | undefined,
): boolean {
  if (!expected) return false;
  const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '');
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(expected)) && match !== null;
}
