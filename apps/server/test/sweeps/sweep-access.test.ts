import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { SESSION_FAILURE_BODIES } from '@dealerpass/domain/account/session-failure';
import type { LightMyRequestResponse } from 'fastify';
import { isStaffAccess, type RouteTableEntry } from '../../src/plugins/route-access.ts';
import { users } from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import {
  endSession,
  hashSessionId,
  SESSION_ABSOLUTE_MS,
} from '../../src/services/session/session-store.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { jsonSchemaOf, toJsonText, validValue } from './fuzz-arbitraries.ts';
import { concretePath, inject, rowCounts, sweptRoutes } from './route-sweeps.ts';
import { createAccount, sessionFor } from '../factories/sign-in.ts';

/**
 * The access sweep (issue 13, docs/decisions/016): every route of the route table that needs a
 * session, called in every session state, each with a plausible and a malformed body. The
 * session is checked before anything else (an anonymous caller never learns what a route
 * expects), the account's state decides as the domain's page rule says, and no answer to one
 * account carries another account's data.
 */

/** Account pages an inactive account may open (000 §2: Billing, to reactivate; the ID link). */
const INACTIVE_MAY_OPEN = new Set<string>([ACCOUNT_ROUTES.billing, ACCOUNT_ROUTES.karIdConnect]);

type TScenario =
  | 'no cookie'
  | 'garbage'
  | 'ended'
  | 'expired'
  | 'replaced'
  | 'another user'
  | 'blocked'
  | 'inactive'
  | 'own';

type TExpected =
  { kind: 'status'; status: number; body?: string; code?: string } | { kind: 'passes' };

function expectedFor(route: RouteTableEntry, scenario: TScenario): TExpected {
  const access = route.access;
  if (access === 'public' || access === 'metrics-token') {
    throw new Error('only session and staff routes are swept here');
  }
  // The operator console (R12): a dealer's session, in any state, is no staff session.
  if (isStaffAccess(access)) return { kind: 'status', status: 401, code: 'UNAUTHORIZED' };
  switch (scenario) {
    case 'no cookie':
      return { kind: 'status', status: 401, code: 'UNAUTHORIZED' };
    case 'garbage':
    case 'ended':
    case 'expired':
      return { kind: 'status', status: 403, body: SESSION_FAILURE_BODIES.invalidToken };
    case 'replaced':
      return { kind: 'status', status: 403, body: SESSION_FAILURE_BODIES.duplicateSession };
    case 'blocked':
      return access === 'session'
        ? { kind: 'passes' }
        : { kind: 'status', status: 403, code: 'ACCOUNT_BLOCKED' };
    case 'inactive':
      if (access === 'session') return { kind: 'passes' };
      return INACTIVE_MAY_OPEN.has(access.page) && !access.activeOnly
        ? { kind: 'passes' }
        : { kind: 'status', status: 403, code: 'ACCOUNT_INACTIVE' };
    case 'another user':
    case 'own':
      return { kind: 'passes' };
  }
}

/** A refusal that belongs to the access layer, not to the route's own handling. */
function isAccessRefusal(response: LightMyRequestResponse): boolean {
  if (response.statusCode === 401) return true;
  if (response.statusCode !== 403) return false;
  const body = response.body;
  return (
    body === JSON.stringify(SESSION_FAILURE_BODIES.invalidToken) ||
    body === JSON.stringify(SESSION_FAILURE_BODIES.duplicateSession) ||
    /"code":"(ACCOUNT_BLOCKED|ACCOUNT_INACTIVE|INTEGRATION_NOT_HELD|UNAUTHORIZED)"/.test(body)
  );
}

/**
 * The routes a session opens, and the operator console's (which no dealer session opens;
 * sweep-staff-access.test.ts sweeps them with staff sessions). `/metrics` answers to its bearer
 * token instead, open on a test server without one; metrics.test.ts checks its token.
 */
function sessionRoutes(t: TestApp): RouteTableEntry[] {
  return sweptRoutes(t).filter(
    (route) => route.access !== 'public' && route.access !== 'metrics-token',
  );
}

const MALFORMED = { __proto__: null, unexpected: [1, { deep: true }], email: 42 };

/** One valid value of a route's schema (what the web app would send), or none. */
function validSample(schema: unknown): unknown {
  const json = jsonSchemaOf(schema);
  return json ? fc.sample(validValue(json), { numRuns: 1, seed: 16 })[0] : undefined;
}

/** A route's valid body as JSON text, and its valid query string. */
function validRequest(route: RouteTableEntry): { body: string; query: string } {
  const body = validSample(route.schema?.body);
  const query = validSample(route.schema?.querystring) as Record<string, unknown> | undefined;
  return {
    body: body === undefined ? '{}' : toJsonText(body),
    query: query
      ? `?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`
      : '',
  };
}

describe('access sweep over the route table', () => {
  let t: TestApp;
  let browser: TestBrowser;
  const cookies = {} as Record<Exclude<TScenario, 'no cookie'>, string>;
  let states: { id: string; status: string }[] = [];

  async function restoreStates() {
    for (const { id, status } of states) {
      await t.app.db.update(users).set({ accountStatus: status }).where(eq(users.id, id));
    }
  }
  const OWN_EMAIL = 'sweep.own@example.com';
  const OTHER_EMAIL = 'sweep.other@example.com';

  beforeAll(async () => {
    t = await buildTestApp();
    browser = await t.browser();
    const own = await createAccount(t, {
      email: OWN_EMAIL,
      firstName: 'Ownerfirst',
      lastName: 'Ownerlast',
    });
    const other = await createAccount(t, { email: OTHER_EMAIL, firstName: 'Otherfirst' });
    const blocked = await createAccount(t, {
      email: 'sweep.blocked@example.com',
      accountStatus: 'blocked',
    });
    const inactive = await createAccount(t, {
      email: 'sweep.inactive@example.com',
      accountStatus: 'inactive',
    });
    const ended = await createAccount(t, { email: 'sweep.ended@example.com' });
    const expired = await createAccount(t, { email: 'sweep.expired@example.com' });
    const replaced = await createAccount(t, { email: 'sweep.replaced@example.com' });

    // A valid call may change its account (a cancel does): each route starts from these states.
    states = [own, other, blocked, inactive].map(({ user }) => ({
      id: user.id,
      status: user.accountStatus,
    }));
    cookies.own = await sessionFor(t, own.user.id);
    cookies['another user'] = await sessionFor(t, other.user.id);
    cookies.blocked = await sessionFor(t, blocked.user.id);
    cookies.inactive = await sessionFor(t, inactive.user.id);
    cookies.garbage = 'not-a-session-id';
    cookies.ended = await sessionFor(t, ended.user.id);
    await endSession(t.app.db, hashSessionId(cookies.ended), new Date(), t.app.keys.encryption);
    cookies.expired = await sessionFor(
      t,
      expired.user.id,
      new Date(Date.now() - SESSION_ABSOLUTE_MS - 60_000),
    );
    cookies.replaced = await sessionFor(t, replaced.user.id);
    await sessionFor(t, replaced.user.id); // a newer sign-in ends the first session
  });
  afterAll(() => t.close());

  /** One call of a route in a session state, with a plausible or a malformed body. */
  function call(route: RouteTableEntry, scenario: TScenario, body: 'plausible' | 'malformed') {
    const hasBody = !['GET', 'HEAD', 'DELETE'].includes(route.method);
    const valid = validRequest(route);
    return inject(t, {
      method: route.method,
      url:
        body === 'plausible'
          ? `${concretePath(route.url, 'sweep')}${valid.query}`
          : `${concretePath(route.url, '%E2%80%AE..')}?year=abc&state=`,
      headers: {
        cookie: [
          browser.cookie,
          scenario === 'no cookie' ? '' : `${SESSION_COOKIE}=${cookies[scenario]}`,
        ]
          .filter(Boolean)
          .join('; '),
        'x-csrf-token': browser.token,
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
      },
      ...(hasBody
        ? { payload: body === 'plausible' ? valid.body : JSON.stringify(MALFORMED) }
        : {}),
    });
  }

  it('has routes to sweep, in each kind of access', () => {
    const kinds = new Set(
      sweptRoutes(t).map((route) =>
        typeof route.access === 'string'
          ? route.access
          : 'staff' in route.access
            ? 'staff'
            : 'page',
      ),
    );
    expect([...kinds].sort()).toEqual([
      'metrics-token',
      'page',
      'public',
      'session',
      'staff',
      'staff-pending',
    ]);
  });

  it('every signed-in route answers each session state as specified, before looking at the body', async () => {
    const routes = sessionRoutes(t);
    expect(routes.length).toBeGreaterThan(10);
    const scenarios: TScenario[] = [
      'no cookie',
      'garbage',
      'ended',
      'expired',
      'replaced',
      'another user',
      'blocked',
      'inactive',
      'own',
    ];
    const failures: string[] = [];
    const acceptedBodies = new Set<string>();
    for (const route of routes) {
      await restoreStates();
      for (const scenario of scenarios) {
        for (const body of ['plausible', 'malformed'] as const) {
          const response = await call(route, scenario, body);
          // A valid call that passed may have changed its account (a cancel does).
          if (body === 'plausible' && response.statusCode < 300) await restoreStates();
          if (
            scenario === 'own' &&
            body === 'plausible' &&
            route.schema?.body &&
            response.statusCode < 400
          )
            acceptedBodies.add(`${route.method} ${route.url}`);
          const label = `${route.method} ${route.url} [${scenario}, ${body}] → ${response.statusCode} ${response.body.slice(0, 120)}`;
          const expected = expectedFor(route, scenario);
          if (expected.kind === 'status') {
            const ok =
              response.statusCode === expected.status &&
              (expected.body === undefined || response.body === JSON.stringify(expected.body)) &&
              (expected.code === undefined ||
                response.json<{ code?: string }>().code === expected.code);
            if (!ok) failures.push(`expected ${expected.status}: ${label}`);
          } else {
            if (isAccessRefusal(response)) failures.push(`expected to pass access: ${label}`);
          }
          if (response.statusCode >= 500) failures.push(`server error: ${label}`);
          // No answer to anyone but the owner carries the owner's data.
          if (scenario !== 'own' && /Ownerfirst|Ownerlast|sweep\.own@/.test(response.body)) {
            failures.push(`another account's data: ${label}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // The valid bodies are valid: the owner's calls reach the handlers, not only the validation.
    expect(acceptedBodies.size, [...acceptedBodies].join(', ')).toBeGreaterThan(0);
    // Every signed-in route × every session state: longer than the suite's per-test limit on two
    // busy cores (124 s once), and growing with the route table.
  }, 300_000);

  it('refused calls write nothing: the refusals alone leave every table as it was', async () => {
    const routes = sessionRoutes(t);
    const before = await rowCounts(t);
    for (const route of routes) {
      for (const scenario of ['no cookie', 'garbage', 'ended', 'expired', 'replaced'] as const) {
        const response = await call(route, scenario, 'plausible');
        expect([401, 403], `${route.method} ${route.url} [${scenario}]`).toContain(
          response.statusCode,
        );
      }
    }
    expect(await rowCounts(t)).toEqual(before);
  });
});
