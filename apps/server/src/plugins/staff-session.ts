import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { AppError } from '../errors/app-error.ts';
import {
  resolveStaffSession,
  STAFF_SESSION_ABSOLUTE_MS,
  type StaffSession,
} from '../services/admin/staff/staff-session-store.ts';

/** The staff cookie (R12): its own name, so a dealer cookie opens no staff route and back. */
export const STAFF_SESSION_COOKIE = '__Host-dp-staff';

/** The staff session of an operator-console route's request (route-access.ts required it). */
export function staffOf(request: FastifyRequest): StaffSession {
  if (!request.staff) throw new AppError(ERROR_CODES.UNAUTHORIZED);
  return request.staff;
}

/**
 * `app.requireStaff`: the guard of every operator-console route. No cookie, or a session that is
 * unknown, ended or expired → 401 (the console signs in again). Sets `request.staff`; whether the
 * second factor and the role suffice is route-access.ts's decision.
 */
export default fp(
  async (app) => {
    app.decorateRequest('staff', null);

    app.decorate('readStaffCookie', (request: FastifyRequest): string | undefined => {
      const header = request.headers.cookie;
      return header ? app.parseCookie(header)[STAFF_SESSION_COOKIE] : undefined;
    });

    app.decorate('setStaffCookie', (reply: FastifyReply, rawId: string | null) => {
      const options = { path: '/', httpOnly: true, secure: true, sameSite: 'lax' } as const;
      if (rawId === null) reply.clearCookie(STAFF_SESSION_COOKIE, options);
      else
        reply.setCookie(STAFF_SESSION_COOKIE, rawId, {
          ...options,
          maxAge: STAFF_SESSION_ABSOLUTE_MS / 1000,
        });
    });

    app.decorate('requireStaff', async (request: FastifyRequest) => {
      const rawId = app.readStaffCookie(request);
      if (!rawId) throw new AppError(ERROR_CODES.UNAUTHORIZED);
      const lookup = await resolveStaffSession(app.db, rawId, app.now());
      if (lookup.status !== 'active') {
        request.log.info('staff session refused');
        throw new AppError(ERROR_CODES.UNAUTHORIZED);
      }
      request.staff = lookup.session;
    });
  },
  { name: 'staff-session', dependencies: ['config', '@fastify/cookie'] },
);

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.requireStaff` on operator-console routes. */
    staff: StaffSession | null;
  }
  interface FastifyInstance {
    requireStaff(request: FastifyRequest): Promise<void>;
    readStaffCookie(request: FastifyRequest): string | undefined;
    setStaffCookie(reply: FastifyReply, rawId: string | null): void;
  }
}
