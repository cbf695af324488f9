import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { loginTransactions } from '../../src/db/schema.ts';
import { DEFAULT_RETURN_TO, safeReturnTo } from '../../src/routes/auth/index.ts';
import {
  DEFAULT_FORWARD_PATH,
  forwardPathOf,
} from '../../src/services/signup/send-verification-mail.ts';
import type { RouteTableEntry } from '../../src/plugins/route-access.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { concretePath, inject, sweptRoutes } from './route-sweeps.ts';
import {
  createAccount,
  sessionFor,
  TestBrowserSession,
  TEST_PASSWORD,
} from '../factories/sign-in.ts';

/**
 * The redirect sweep (issue 13, docs/decisions/016): wherever a request names a place to go
 * back to, whatever the string, the browser is sent to a path of our own origin or the fixed
 * default, and never gets a 500. The places are found in the route table, by the names of the
 * fields of each route's schemas.
 */

const RETURN_FIELD = /return|redirect|forward|callback/i;

/** The field names of a zod schema, through objects, unions, pipes and wrappers. */
function fieldNames(schema: unknown, seen = new Set<unknown>()): string[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  const def = (schema as { def?: Record<string, unknown> }).def;
  if (!def) return [];
  const names: string[] = [];
  if (def.shape && typeof def.shape === 'object') {
    for (const [name, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
      names.push(name, ...fieldNames(field, seen));
    }
  }
  for (const key of ['options', 'in', 'out', 'innerType', 'left', 'right', 'schema']) {
    const inner = def[key];
    if (Array.isArray(inner)) for (const option of inner) names.push(...fieldNames(option, seen));
    else names.push(...fieldNames(inner, seen));
  }
  return names;
}

interface ReturnTarget {
  route: RouteTableEntry;
  where: 'querystring' | 'body' | 'params';
  field: string;
}

function returnTargets(t: TestApp): ReturnTarget[] {
  const targets: ReturnTarget[] = [];
  for (const route of sweptRoutes(t)) {
    for (const where of ['querystring', 'body', 'params'] as const) {
      const schema = route.schema?.[where];
      for (const field of new Set(fieldNames(schema))) {
        if (RETURN_FIELD.test(field)) targets.push({ route, where, field });
      }
    }
  }
  return targets;
}

/** A Location a browser follows without leaving our origin. */
function expectSameOrigin(location: string | undefined, origin: string, label: string) {
  if (location === undefined) return;
  const target = new URL(location, origin);
  expect(target.origin, label).toBe(origin);
  expect(location, label).not.toMatch(/^\/\/|^\/\\|\s/);
  expect(/^[\x21-\x7e]*$/.test(location) || /^https?:\/\//.test(location), label).toBe(true);
}

/** Percent-encodes the UTF-8 bytes, as a browser does (a lone surrogate goes as U+FFFD). */
function percentEncode(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) => `%${byte.toString(16).padStart(2, '0')}`)
    .join('');
}

function encodable(value: string): boolean {
  try {
    encodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
}

const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom(
    '/\t/evil.example/phish',
    '/%09/evil.example',
    '//evil.example',
    '/\\evil.example',
    '/.//evil.example',
    '/\r\nSet-Cookie: x=1',
    '/\u000b/x',
    '/\u00e9t\u00e9',
    '/\ud800',
    'https://evil.example/',
    'javascript:alert(1)',
  ),
  fc.webUrl(),
);

describe('redirect sweep', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let session: string;
  let origin: string;

  beforeAll(async () => {
    t = await buildTestApp();
    origin = new URL(t.app.config.publicUrl).origin;
    browser = await t.browser();
    const { user } = await createAccount(t, { email: 'redirect.sweep@example.com' });
    session = await sessionFor(t, user.id);
  });
  afterAll(() => t.close());

  it('finds the return targets in the route table, /login among them', () => {
    const found = returnTargets(t).map((x) => `${x.route.url} ${x.where}.${x.field}`);
    expect(found).toEqual(expect.arrayContaining(['/login querystring.returnTo']));
  });

  it('every return target answers any string without a 500 and never sends the browser away', async () => {
    const targets = returnTargets(t);
    for (const target of targets) {
      await fc.assert(
        fc.asyncProperty(hostile, async (value) => {
          const { route, where, field } = target;
          const url =
            where === 'params'
              ? route.url.replace(`:${field}`, percentEncode(value || 'x'))
              : concretePath(route.url);
          const query = where === 'querystring' ? `?${field}=${percentEncode(value)}` : '';
          const hasBody = where === 'body';
          const response = await inject(t, {
            method: route.method,
            url: `${concretePath(url)}${query}`,
            headers: {
              cookie: `${browser.cookie}; ${SESSION_COOKIE}=${session}`,
              'x-csrf-token': browser.token,
              ...(hasBody ? { 'content-type': 'application/json' } : {}),
            },
            ...(hasBody ? { payload: JSON.stringify({ [field]: value }) } : {}),
          });
          const label = `${route.method} ${route.url} ${where}.${field}=${JSON.stringify(value)}`;
          expect(response.statusCode, label).toBeLessThan(500);
          const location = response.headers.location;
          expectSameOrigin(typeof location === 'string' ? location : undefined, origin, label);
        }),
        { numRuns: 60 },
      );
    }
  });

  it('whatever /login was given, the return target it stores is our own path or /account', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (value) => {
        const response = await inject(t, {
          method: 'GET',
          url: `/login?returnTo=${percentEncode(value)}`,
        });
        // Text the database cannot store (NUL) is refused at the edge for every route (400).
        if (value.includes('\u0000')) {
          expect(response.statusCode).toBe(400);
          return;
        }
        expect(response.statusCode).toBe(303);
        const state = new URL(response.headers.location as string).searchParams.get('state');
        expect(state).toBeTruthy();
        const rows = await t.app.db.select().from(loginTransactions);
        const stored = rows.at(-1)?.returnTo ?? '';
        expectSameOrigin(stored, origin, JSON.stringify(value));
        expect(stored.startsWith('/')).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('a full sign-in with a hostile returnTo lands on our origin, and the callback never fails', async () => {
    await createAccount(t, { email: 'redirect.flow@example.com' });
    const samples = [
      '/\t/evil.example/phish',
      '/%09/evil.example',
      '/\r\n/x',
      '/\u000b/x',
      '/\u00e9',
      '/.//evil.example',
      ...fc.sample(hostile, { numRuns: 8, seed: 42 }).filter(encodable),
    ];
    for (const value of samples) {
      const person = new TestBrowserSession(t);
      const { login, landed } = await person.signIn(
        { method: 'email', email: 'redirect.flow@example.com', password: TEST_PASSWORD },
        value,
      );
      expect(login.statusCode, JSON.stringify(value)).toBe(200);
      expect(landed, JSON.stringify(value)).toBeTruthy();
      const target = new URL(landed as string, origin);
      expect(target.origin, JSON.stringify(value)).toBe(origin);
      expect(target.pathname, JSON.stringify(value)).not.toMatch(/callback/);
      // The callback finished: the session it started works.
      const me = await person.get('/api/users/current');
      expect(me.statusCode, JSON.stringify(value)).toBe(200);
    }
  });

  it('the server-side rules are properties: any input gives a safe path', () => {
    fc.assert(
      fc.property(hostile, (value) => {
        for (const path of [safeReturnTo(value), forwardPathOf(value, t.app.config.publicUrl)]) {
          expect(path.startsWith('/')).toBe(true);
          expect(path.startsWith('//')).toBe(false);
          expect(new URL(path, origin).origin).toBe(origin);
        }
      }),
      { numRuns: 2000 },
    );
    expect(safeReturnTo('/\t/evil.example/phish')).toBe(DEFAULT_RETURN_TO);
    expect(forwardPathOf('https://evil.example/login', t.app.config.publicUrl)).toBe(
      DEFAULT_FORWARD_PATH,
    );
  });
});
