import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { AppError } from '../errors/app-error.ts';
import { hmac, safeEqual } from '../lib/keys.ts';
import { needsWebAppChecks } from './route-access.ts';

/** `__Host-`: Secure, Path=/ and no Domain, so no sibling host can set or read it. */
export const CSRF_COOKIE = '__Host-dp-csrf';
export const CSRF_HEADER = 'x-csrf-token';

/**
 * CSRF protection on every unsafe route our web app calls (`config.caller`, route-access.ts) (docs/decisions/003-csrf-and-sessions.md): a random secret in an HttpOnly cookie;
 * the page carries HMAC(secret) in a meta tag; the web app echoes it in `x-csrf-token`. A forged
 * request can send the cookie but cannot read the page, so it cannot know the token.
 */
export default fp(
  async (app) => {
    app.decorateReply('csrfToken', function (this: FastifyReply): string {
      return issueCsrfToken(this.request, this);
    });

    app.addHook('onRequest', (request, _reply, done) => {
      // Decided on the route that matched, never on the raw URL: the router decodes
      // `/%61pi/…` to `/api/…`, so a prefix test of `request.url` could be walked around.
      if (!needsWebAppChecks(request)) return done();
      const secret = readCookie(request, CSRF_COOKIE);
      const token = request.headers[CSRF_HEADER];
      if (!secret || typeof token !== 'string' || !safeEqual(token, hmac(app.keys.csrf, secret))) {
        return done(new AppError(ERROR_CODES.CSRF_FAILED));
      }
      done();
    });

    function readCookie(request: FastifyRequest, name: string): string | undefined {
      const header = request.headers.cookie;
      return header ? app.parseCookie(header)[name] : undefined;
    }

    function issueCsrfToken(request: FastifyRequest, reply: FastifyReply): string {
      let secret = readCookie(request, CSRF_COOKIE);
      if (!secret || !/^[A-Za-z0-9_-]{43}$/.test(secret)) {
        secret = randomBytes(32).toString('base64url');
        reply.setCookie(CSRF_COOKIE, secret, {
          path: '/',
          httpOnly: true,
          secure: true,
          sameSite: 'lax',
        });
      }
      return hmac(app.keys.csrf, secret);
    }
  },
  { name: 'csrf', dependencies: ['config', '@fastify/cookie'] },
);

declare module 'fastify' {
  interface FastifyReply {
    /** The CSRF token for this browser, setting its cookie first if it has none. */
    csrfToken(): string;
  }
}
