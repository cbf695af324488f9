import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { SESSION_FAILURE_BODIES } from '@dealerpass/domain/account/session-failure';
import { AppError } from '../errors/app-error.ts';
import {
  resolveSession,
  SESSION_ABSOLUTE_MS,
  type ActiveSession,
  type SessionContext,
} from '../services/session/session-store.ts';
import type { UserRow } from '../services/users/serialize-user.ts';

export const SESSION_COOKIE = '__Host-dp-session';

/**
 * The session of a signed-in route's request: route-access.ts has required it before the handler
 * runs, so a missing one means the route declared no session and is answered 401.
 */
export function sessionOf(request: FastifyRequest): ActiveSession {
  if (!request.session) throw new AppError(ERROR_CODES.UNAUTHORIZED);
  return request.session;
}

/**
 * The signed-in account's row as it was read with the session, at the start of this request
 * (docs/decisions/021): a handler that changes the account reads it again after its change.
 */
export function accountOf(request: FastifyRequest): UserRow {
  if (!request.session || !request.account) throw new AppError(ERROR_CODES.UNAUTHORIZED);
  return request.account;
}

const DUPLICATE_BODY: Record<SessionContext, string> = {
  web: SESSION_FAILURE_BODIES.duplicateSession,
  app: SESSION_FAILURE_BODIES.duplicateSession,
  af: SESSION_FAILURE_BODIES.afDuplicateSession,
  ext: SESSION_FAILURE_BODIES.extDuplicateSession,
};

/**
 * `app.requireSession`: the guard of every signed-in route (docs/decisions/009). No cookie → 401;
 * unknown, ended or expired → 403 "invalidToken"; ended by a newer sign-in → 403 "duplicateSession"
 * (or its AF/Ext variant). Otherwise `request.session` and `request.account` (the account's row,
 * read in the same statement) are set.
 */
export default fp(
  async (app) => {
    app.decorateRequest('session', null);

    app.decorate('readSessionCookie', (request: FastifyRequest): string | undefined => {
      const header = request.headers.cookie;
      return header ? app.parseCookie(header)[SESSION_COOKIE] : undefined;
    });

    app.decorate('setSessionCookie', (reply: FastifyReply, rawId: string | null) => {
      if (rawId === null) {
        reply.clearCookie(SESSION_COOKIE, {
          path: '/',
          httpOnly: true,
          secure: true,
          sameSite: 'lax',
        });
        return;
      }
      reply.setCookie(SESSION_COOKIE, rawId, {
        path: '/',
        httpOnly: true,
        secure: true,
        sameSite: 'lax',
        maxAge: SESSION_ABSOLUTE_MS / 1000,
      });
    });

    app.decorate('requireSession', async (request: FastifyRequest, reply: FastifyReply) => {
      const rawId = app.readSessionCookie(request);
      if (!rawId) throw new AppError(ERROR_CODES.UNAUTHORIZED);
      const lookup = await resolveSession(app.db, rawId, app.now());
      if (lookup.status === 'active') {
        request.session = lookup.session;
        request.account = lookup.account;
        return;
      }
      const body =
        lookup.status === 'duplicate'
          ? DUPLICATE_BODY[lookup.context]
          : SESSION_FAILURE_BODIES.invalidToken;
      request.log.info({ sessionFailure: body }, 'session refused');
      return reply.status(403).type('application/json; charset=utf-8').send(JSON.stringify(body));
    });
  },
  { name: 'session', dependencies: ['config', '@fastify/cookie'] },
);

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.requireSession` on signed-in routes. */
    session: ActiveSession | null;
  }
  interface FastifyInstance {
    requireSession(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
    readSessionCookie(request: FastifyRequest): string | undefined;
    setSessionCookie(reply: FastifyReply, rawId: string | null): void;
  }
}
