import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER } from '../../src/plugins/csrf.ts';
import { isStaffAccess, isUnsafeMethod } from '../../src/plugins/route-access.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { STAFF_SESSION_COOKIE } from '../../src/plugins/staff-session.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { concretePath, inject, rowCounts, sweptRoutes } from './route-sweeps.ts';
import { createAccount, sessionFor } from '../factories/sign-in.ts';
import { staffSessionFor } from '../factories/staff-sign-in.ts';

/**
 * The CSRF sweep (issue 13, docs/decisions/016): every unsafe route our web app calls, the OIDC
 * interaction posts included, with a forged token or a body a cross-site form can send, under
 * every spelling of its path a router may accept. Each is refused (403 or 415) and its handler
 * never runs: no table changes, and the victim's session still works afterwards (the sign-out
 * route would have ended it).
 */

/** Spellings of one path that a browser or an attacker may send; the router decodes some. */
function pathVariants(path: string): Record<string, string> {
  const segments = path.split('/');
  const encodedFirst = segments
    .map((segment) =>
      segment === ''
        ? segment
        : `%${segment.charCodeAt(0).toString(16).padStart(2, '0')}${segment.slice(1)}`,
    )
    .join('/');
  return {
    plain: path,
    'percent-encoded': encodedFirst,
    'encoded first segment': path.replace(
      /^\/(.)/,
      (_m, c: string) => `/%${c.charCodeAt(0).toString(16)}`,
    ),
    'doubled slash': `/${path}`,
    'doubled inner slash': path.replace(/^(\/[^/]+)\//, '$1//'),
    'upper case': path.toUpperCase(),
    'trailing slash': `${path}/`,
  };
}

describe('CSRF sweep over the route table', () => {
  let t: TestApp;
  let victim: TestBrowser;
  let attacker: TestBrowser;
  let session: string;
  /** The victim is also signed in to the operator console, as an admin (R12). */
  let staffSession: string;

  beforeAll(async () => {
    t = await buildTestApp();
    victim = await t.browser();
    attacker = await t.browser();
    const { user } = await createAccount(t, { email: 'csrf.victim@example.com' });
    session = await sessionFor(t, user.id);
    staffSession = (await staffSessionFor(t, 'admin')).rawId;
  });
  afterAll(() => t.close());

  const victimCookies = () =>
    `${victim.cookie}; ${SESSION_COOKIE}=${session}; ${STAFF_SESSION_COOKIE}=${staffSession}`;

  it('finds the unsafe routes the web app calls, the sign-in post among them', () => {
    const unsafe = sweptRoutes(t).filter(
      (route) => isUnsafeMethod(route.method) && route.caller === 'web-app',
    );
    expect(unsafe.map((route) => route.url)).toEqual(
      expect.arrayContaining(['/api/auth/logout', '/oidc/interaction/:uid/login']),
    );
    // The operator console's actions are the web app's calls too: the same token guards them.
    expect(unsafe.some((route) => isStaffAccess(route.access))).toBe(true);
    expect(
      sweptRoutes(t).filter(
        (route) =>
          isStaffAccess(route.access) && isUnsafeMethod(route.method) && route.caller !== 'web-app',
      ),
    ).toEqual([]);
  });

  it('refuses every forged write under every spelling of its path, and runs no handler', async () => {
    const routes = sweptRoutes(t).filter(
      (route) => isUnsafeMethod(route.method) && route.caller === 'web-app',
    );
    const attacks: Record<string, { headers: Record<string, string>; payload: string }> = {
      'no token': { headers: { 'content-type': 'application/json' }, payload: '{}' },
      'wrong token': {
        headers: { 'content-type': 'application/json', [CSRF_HEADER]: 'x'.repeat(43) },
        payload: '{}',
      },
      "another browser's token": {
        headers: { 'content-type': 'application/json', [CSRF_HEADER]: attacker.token },
        payload: '{}',
      },
      'text/plain': {
        headers: { 'content-type': 'text/plain', [CSRF_HEADER]: victim.token },
        payload: '{}',
      },
      'form-urlencoded': {
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          [CSRF_HEADER]: victim.token,
        },
        payload: 'a=1',
      },
      multipart: {
        headers: {
          'content-type': 'multipart/form-data; boundary=x',
          [CSRF_HEADER]: victim.token,
        },
        payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
      },
      // The cross-site form without any token, as a browser would send it.
      'plain form, no token': {
        headers: { 'content-type': 'text/plain' },
        payload: '{"x":1}',
      },
    };
    const before = await rowCounts(t);
    const failures: string[] = [];
    let sent = 0;
    for (const route of routes) {
      for (const [spelling, path] of Object.entries(pathVariants(concretePath(route.url)))) {
        for (const [attack, { headers, payload }] of Object.entries(attacks)) {
          const response = await inject(t, {
            method: route.method,
            url: path,
            headers: { cookie: victimCookies(), ...headers },
            payload,
          });
          sent += 1;
          // 404: that spelling reaches no route at all, which is as safe as a refusal.
          if (![403, 404, 415].includes(response.statusCode)) {
            failures.push(
              `${route.method} ${path} (${spelling}, ${attack}) → ${response.statusCode} ${response.body.slice(0, 100)}`,
            );
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(100);
    expect(failures).toEqual([]);
    expect(await rowCounts(t)).toEqual(before);
    // Sign-out never ran under any spelling: the victim is still signed in.
    const still = await inject(t, {
      method: 'GET',
      url: '/api/users/current',
      headers: { cookie: victimCookies() },
    });
    expect(still.statusCode).toBe(200);
    const staffStill = await inject(t, {
      method: 'GET',
      url: '/api/admin/promotions',
      headers: { cookie: victimCookies() },
    });
    expect(staffStill.statusCode).toBe(200);
  });

  it('a percent-encoded path reaches the same route with the same checks and headers', async () => {
    const logout = await inject(t, {
      method: 'POST',
      url: '/%61pi/auth/logout',
      headers: { cookie: victimCookies(), 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(logout.statusCode).toBe(403);
    const current = await inject(t, {
      method: 'GET',
      url: '/%61pi/users/current',
      headers: { cookie: victimCookies() },
    });
    expect(current.statusCode).toBe(200);
    expect(current.headers['cache-control']).toBe('no-store');
  });

  it('the real token in its own browser passes (the sweep refuses forgeries, not everything)', async () => {
    const response = await inject(t, {
      method: 'POST',
      url: '/api/auth/logout',
      headers: {
        cookie: victimCookies(),
        'content-type': 'application/json',
        [CSRF_HEADER]: victim.token,
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((c) => c.name === CSRF_COOKIE)).toBeUndefined();
  });
});
