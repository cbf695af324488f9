import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_FAILURE_BODIES } from '@dealerpass/domain/account/session-failure';
import { roleAllows, STAFF_ROLES, type TStaffRole } from '@dealerpass/domain/admin/roles';
import { isStaffAccess, type RouteTableEntry } from '../../src/plugins/route-access.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { STAFF_SESSION_COOKIE } from '../../src/plugins/staff-session.ts';
import { jsonSchemaOf, toJsonText, validValue } from './fuzz-arbitraries.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { concretePath, inject, rowCounts, sweptRoutes } from './route-sweeps.ts';
import { createAccount, sessionFor } from '../factories/sign-in.ts';
import { staffSessionFor } from '../factories/staff-sign-in.ts';

/**
 * The staff access sweep (R12, docs/decisions/016, 026): every operator-console route of the
 * route table, called without a session, with a dealer's session (as the dealer cookie, and its
 * value as the staff cookie), with a staff session still missing its second factor, and with
 * each staff role. Only a staff session with its second factor and a role at least the route's
 * passes; refused calls write nothing. And the other way round: a staff session opens no dealer
 * route, whichever cookie carries it.
 */

type TExpected = { status: number; code?: string; body?: unknown } | 'passes';

/** A refusal by the access layer (a route's own 401/403 would need a session it already has). */
function isAccessRefusal(response: LightMyRequestResponse): boolean {
  if (response.statusCode === 401) return true;
  if (response.statusCode !== 403) return false;
  return (
    response.body === JSON.stringify(SESSION_FAILURE_BODIES.invalidToken) ||
    response.body === JSON.stringify(SESSION_FAILURE_BODIES.duplicateSession) ||
    /"code":"(STAFF_SECOND_FACTOR_REQUIRED|STAFF_ROLE_REQUIRED|UNAUTHORIZED|CSRF_FAILED)"/.test(
      response.body,
    )
  );
}

function staffRoutes(t: TestApp): RouteTableEntry[] {
  return sweptRoutes(t).filter((route) => isStaffAccess(route.access));
}

function dealerRoutes(t: TestApp): RouteTableEntry[] {
  return sweptRoutes(t).filter(
    (route) =>
      route.access === 'session' || (typeof route.access === 'object' && 'page' in route.access),
  );
}

/** The role a route needs; null for the console's own session routes ('staff-pending'). */
function requiredRole(route: RouteTableEntry): TStaffRole | null {
  return typeof route.access === 'object' && 'staff' in route.access ? route.access.staff : null;
}

/** One valid value of a route's schema (what the console would send), or none. */
function validSample(schema: unknown): unknown {
  const json = jsonSchemaOf(schema);
  return json ? fc.sample(validValue(json), { numRuns: 1, seed: 19 })[0] : undefined;
}

describe('staff access sweep over the route table (R12)', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let dealerCookie: string;
  let pendingStaff: string;
  const roleCookies = {} as Record<TStaffRole, string>;
  /** A path parameter every route can take (a UUID is also a plausible promotion code). */
  const PARAM = randomUUID();

  beforeAll(async () => {
    t = await buildTestApp();
    browser = await t.browser();
    const { user } = await createAccount(t, { email: 'staff.sweep.dealer@example.com' });
    dealerCookie = await sessionFor(t, user.id);
    pendingStaff = (await staffSessionFor(t, 'admin', { secondFactor: false })).rawId;
    for (const role of STAFF_ROLES) roleCookies[role] = (await staffSessionFor(t, role)).rawId;
  });
  afterAll(() => t.close());

  function call(route: RouteTableEntry, cookies: { dealer?: string; staff?: string }) {
    const hasBody = !['GET', 'HEAD', 'DELETE'].includes(route.method);
    const body = validSample(route.schema?.body);
    const query = validSample(route.schema?.querystring) as Record<string, unknown> | undefined;
    const search = query
      ? `?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`
      : '';
    return inject(t, {
      method: route.method,
      url: `${concretePath(route.url, PARAM)}${search}`,
      headers: {
        cookie: [
          browser.cookie,
          cookies.dealer === undefined ? '' : `${SESSION_COOKIE}=${cookies.dealer}`,
          cookies.staff === undefined ? '' : `${STAFF_SESSION_COOKIE}=${cookies.staff}`,
        ]
          .filter(Boolean)
          .join('; '),
        'x-csrf-token': browser.token,
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
      },
      ...(hasBody ? { payload: body === undefined ? '{}' : toJsonText(body) } : {}),
    });
  }

  function check(
    failures: string[],
    label: string,
    response: LightMyRequestResponse,
    expected: TExpected,
  ) {
    const answer = `${label} → ${response.statusCode} ${response.body.slice(0, 120)}`;
    if (response.statusCode >= 500) failures.push(`server error: ${answer}`);
    if (expected === 'passes') {
      if (isAccessRefusal(response)) failures.push(`expected to pass access: ${answer}`);
      return;
    }
    const ok =
      response.statusCode === expected.status &&
      (expected.code === undefined || response.json<{ code?: string }>().code === expected.code) &&
      (expected.body === undefined || response.body === JSON.stringify(expected.body));
    if (!ok) failures.push(`expected ${expected.status} ${expected.code ?? ''}: ${answer}`);
  }

  it('finds the console’s routes in the route table, each role among them', () => {
    const routes = staffRoutes(t);
    expect(routes.map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/admin/accounts',
        'GET /api/admin/accounts/:userId/timeline',
        'GET /api/admin/audit.csv',
        'POST /api/admin/promotions',
        'POST /api/admin/prices',
        'POST /api/admin/contact-messages/:id/reply',
      ]),
    );
    for (const role of STAFF_ROLES) expect(routes.map(requiredRole)).toContain(role);
  });

  it('refuses no session, a dealer session and a missing second factor, and writes nothing', async () => {
    const failures: string[] = [];
    const before = await rowCounts(t);
    for (const route of staffRoutes(t)) {
      const label = `${route.method} ${route.url}`;
      check(failures, `${label} [no cookie]`, await call(route, {}), {
        status: 401,
        code: 'UNAUTHORIZED',
      });
      check(failures, `${label} [dealer cookie]`, await call(route, { dealer: dealerCookie }), {
        status: 401,
        code: 'UNAUTHORIZED',
      });
      check(
        failures,
        `${label} [dealer value as staff cookie]`,
        await call(route, { staff: dealerCookie }),
        {
          status: 401,
          code: 'UNAUTHORIZED',
        },
      );
      check(
        failures,
        `${label} [dealer and staff-less]`,
        await call(route, { dealer: dealerCookie, staff: 'not-a-staff-session' }),
        { status: 401, code: 'UNAUTHORIZED' },
      );
      if (requiredRole(route) !== null) {
        check(failures, `${label} [no second factor]`, await call(route, { staff: pendingStaff }), {
          status: 403,
          code: 'STAFF_SECOND_FACTOR_REQUIRED',
        });
      }
      const needed = requiredRole(route);
      for (const role of STAFF_ROLES) {
        if (needed === null || roleAllows(role, needed)) continue;
        check(failures, `${label} [${role}]`, await call(route, { staff: roleCookies[role] }), {
          status: 403,
          code: 'STAFF_ROLE_REQUIRED',
        });
      }
    }
    expect(failures).toEqual([]);
    expect(await rowCounts(t)).toEqual(before);
  });

  it('lets the route’s role and every role above it through', async () => {
    const failures: string[] = [];
    let passed = 0;
    // A call that passes may act on its own session (sign-out, a wrong code): each unsafe call
    // and each console session route gets a session of its own.
    const sessionFor = async (route: RouteTableEntry, role: TStaffRole, secondFactor = true) =>
      requiredRole(route) === null || !['GET', 'HEAD'].includes(route.method)
        ? (await staffSessionFor(t, role, { secondFactor })).rawId
        : secondFactor
          ? roleCookies[role]
          : pendingStaff;
    for (const route of staffRoutes(t)) {
      const needed = requiredRole(route);
      for (const role of STAFF_ROLES) {
        if (needed !== null && !roleAllows(role, needed)) continue;
        const response = await call(route, { staff: await sessionFor(route, role) });
        check(failures, `${route.method} ${route.url} [${role}]`, response, 'passes');
        passed += 1;
      }
      if (needed === null) {
        check(
          failures,
          `${route.method} ${route.url} [no second factor]`,
          await call(route, { staff: await sessionFor(route, 'support', false) }),
          'passes',
        );
      }
    }
    expect(passed).toBeGreaterThan(staffRoutes(t).length);
    expect(failures).toEqual([]);
  });

  it('opens no dealer route with a staff session, whichever cookie carries it, and writes nothing', async () => {
    const routes = dealerRoutes(t);
    expect(routes.length).toBeGreaterThan(10);
    const failures: string[] = [];
    const before = await rowCounts(t);
    for (const route of routes) {
      const label = `${route.method} ${route.url}`;
      for (const role of STAFF_ROLES) {
        check(
          failures,
          `${label} [${role} staff cookie]`,
          await call(route, { staff: roleCookies[role] }),
          {
            status: 401,
            code: 'UNAUTHORIZED',
          },
        );
        check(
          failures,
          `${label} [${role} value as dealer cookie]`,
          await call(route, { dealer: roleCookies[role] }),
          {
            status: 403,
            body: SESSION_FAILURE_BODIES.invalidToken,
          },
        );
      }
    }
    expect(failures).toEqual([]);
    expect(await rowCounts(t)).toEqual(before);
  });
});
