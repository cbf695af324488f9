import type { FastifyReply, FastifyRequest, FastifySchema, HTTPMethods } from 'fastify';
import fp from 'fastify-plugin';
import { accountFlags } from '@dealerpass/domain/account/status';
import {
  accountApiAccess,
  type TAccountApiRefusal,
  type TAccountRoute,
} from '@dealerpass/domain/account/account-routes';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import { roleAllows, type TStaffRole } from '@dealerpass/domain/admin/roles';
import { AppError } from '../errors/app-error.ts';
import { checkBearerToken } from '../lib/bearer-token.ts';
import type { UserRow } from '../services/users/serialize-user.ts';

/**
 * Who may call a route (docs/decisions/016), declared in the route's own `config.access`:
 * - `'public'`: anyone;
 * - `'session'`: a live session, whatever the account's state (a blocked account still reads
 *   its own record, so the web app can send it away);
 * - `{ page }`: a live session whose account may open that account page (the domain's
 *   `accountRouteAccess`), `activeOnly` for the calls an inactive account may not make there;
 * - `'metrics-token'`: the configured metrics bearer token (`METRICS_TOKEN`), or anyone on a
 *   server that has none (only a demo, development or test server serves metrics without one:
 *   docs/decisions/023).
 * - `'staff-pending'`: a live staff session whose second factor may still be missing: only the
 *   console's own session, enrolment, verification and sign-out (docs/decisions/026).
 * - `{ staff: role }`: a live staff session with its second factor verified, whose member has
 *   that role or one above it (R12). A dealer session opens none of these, and a staff session no
 *   dealer route: each has its own cookie.
 */
export type TRouteAccess =
  | 'public'
  | 'session'
  | 'metrics-token'
  | 'staff-pending'
  | { staff: TStaffRole }
  | { page: TAccountRoute; activeOnly?: boolean };

/** Whether a route belongs to the operator console (a staff session opens it, nothing else). */
export function isStaffAccess(
  access: TRouteAccess,
): access is 'staff-pending' | { staff: TStaffRole } {
  return access === 'staff-pending' || (typeof access === 'object' && 'staff' in access);
}

/**
 * Who calls the route: our web app (the default: unsafe methods need the CSRF token and a JSON
 * body), or another party's protocol (an OAuth client, the gateway's card script), which can do
 * neither and is protected by that protocol instead.
 */
export type TRouteCaller = 'web-app' | 'protocol';

export interface RouteTableEntry {
  method: HTTPMethods;
  url: string;
  access: TRouteAccess;
  caller: TRouteCaller;
  schema: FastifySchema | undefined;
  bodyLimit: number | undefined;
}

const UNSAFE = new Set<string>(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isUnsafeMethod(method: string): boolean {
  return UNSAFE.has(method);
}

/** The checks CSRF and JSON-only apply to this request's matched route (never its raw URL). */
export function needsWebAppChecks(request: FastifyRequest): boolean {
  return (
    UNSAFE.has(request.method) &&
    request.routeOptions.url !== undefined &&
    (request.routeOptions.config.caller ?? 'web-app') === 'web-app'
  );
}

const REFUSALS: Record<TAccountApiRefusal, (typeof ERROR_CODES)[keyof typeof ERROR_CODES]> = {
  blocked: ERROR_CODES.ACCOUNT_BLOCKED,
  inactive: ERROR_CODES.ACCOUNT_INACTIVE,
  'not-held': ERROR_CODES.INTEGRATION_NOT_HELD,
};

/**
 * Access control from the route table. Every route under /api and every route that takes an
 * unsafe method must say who may call it, or the server does not start; the check runs on the
 * route that matched (so any spelling of its path gets the same answer), in `onRequest`: before
 * a body is read or validated, an anonymous caller learns nothing about what the route expects.
 */
export default fp(
  async (app) => {
    const table: RouteTableEntry[] = [];
    app.decorate('routeTable', table);
    app.decorateRequest('account', null);

    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const access = route.config?.access;
      const needsDeclaration =
        route.url.startsWith('/api/') || route.url === '/api' || methods.some((m) => UNSAFE.has(m));
      if (access === undefined && needsDeclaration) {
        throw new Error(`route ${methods.join(',')} ${route.url} declares no config.access`);
      }
      for (const method of methods) {
        table.push({
          method,
          url: route.url,
          access: access ?? 'public',
          caller: route.config?.caller ?? 'web-app',
          schema: route.schema,
          bodyLimit: route.bodyLimit,
        });
      }
    });

    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const access = request.routeOptions.config.access;
      if (access === undefined || access === 'public') return;
      if (access === 'metrics-token') {
        const token = app.config.metrics.token;
        if (token === undefined) return;
        const check = checkBearerToken(request, token);
        if (check === 'valid') return;
        // RFC 6750 §3: no error code when no token came, `invalid_token` when a wrong one did.
        reply.header(
          'www-authenticate',
          check === 'absent'
            ? 'Bearer realm="metrics"'
            : 'Bearer realm="metrics", error="invalid_token"',
        );
        throw new AppError(ERROR_CODES.UNAUTHORIZED);
      }
      if (isStaffAccess(access)) {
        await app.requireStaff(request);
        const staff = request.staff;
        if (!staff) throw new AppError(ERROR_CODES.UNAUTHORIZED);
        if (access === 'staff-pending') return;
        if (!staff.secondFactor) throw new AppError(ERROR_CODES.STAFF_SECOND_FACTOR_REQUIRED);
        if (!roleAllows(staff.role, access.staff))
          throw new AppError(ERROR_CODES.STAFF_ROLE_REQUIRED);
        return;
      }
      await app.requireSession(request, reply);
      const row = request.account;
      if (!request.session || !row) return reply; // refused and answered by the session guard
      if (access === 'session') return;
      const decision = accountApiAccess(access.page, {
        flags: accountFlags(row),
        subscriptions: row.subscriptions,
        ...(access.activeOnly ? { activeOnly: true } : {}),
      });
      if (!decision.allowed) {
        const code = REFUSALS[decision.refusal];
        throw new AppError(code, { message: errorMessage(code, app.messageVars) });
      }
    });
  },
  { name: 'route-access', dependencies: ['config', 'session', 'staff-session'] },
);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; required under /api and for unsafe methods (docs/decisions/016). */
    access?: TRouteAccess;
    /** 'protocol' for another party's endpoint (no CSRF token, not only JSON); default 'web-app'. */
    caller?: TRouteCaller;
  }
  interface FastifyInstance {
    /** Every route with what it declares: the sweeps in the tests are derived from it. */
    routeTable: readonly RouteTableEntry[];
  }
  interface FastifyRequest {
    /** The account's row, read with the session on every signed-in route (session.ts). */
    account: UserRow | null;
  }
}
