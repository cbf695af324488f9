import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStaffAccess, type RouteTableEntry } from '../src/plugins/route-access.ts';
import { consolePost, plainDealer, staffCookies } from './admin-fixtures.ts';
import { jsonSchemaOf, validValue, type JsonSchema } from './fuzz-arbitraries.ts';
import { buildTestApp, type TestApp, type TestBrowser } from './helper.ts';
import { rowCounts, sweptRoutes } from './route-sweeps.ts';

/** Tries per route at a body its schema accepts (refinements can refuse a generated one). */
const BODY_TRIES = 60;

/**
 * A request key is one action's (R12, docs/decisions/026). Every console route whose body
 * carries a `requestKey`, taken from the route table, is sent a body its schema accepts with a
 * key already used by another action: it answers 409 ACTION_NOT_ALLOWED, as its description
 * says, and writes nothing. Fuzzing found one route whose 409 was undocumented by chance; this
 * sweep asks every keyed route, every run.
 */
describe('request keys over the route table', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let admin: string;

  beforeAll(async () => {
    t = await buildTestApp();
    browser = await t.browser();
    admin = (await staffCookies(t)).admin.cookie;
  }, 60_000);
  afterAll(() => t.close());

  function keyedRoutes(): {
    route: RouteTableEntry;
    body: JsonSchema;
    params: JsonSchema | null;
  }[] {
    return sweptRoutes(t).flatMap((route) => {
      const schema = route.schema as Record<string, unknown> | undefined;
      const body = jsonSchemaOf(schema?.body);
      if (!body?.properties || !('requestKey' in body.properties)) return [];
      return [{ route, body, params: jsonSchemaOf(schema?.params) }];
    });
  }

  it('finds the keyed routes in the route table: every one is a console route, sent as POST', () => {
    const routes = keyedRoutes();
    expect(routes.length).toBeGreaterThan(10);
    for (const { route } of routes) {
      expect(isStaffAccess(route.access), route.url).toBe(true);
      expect(route.method, route.url).toBe('POST');
    }
    expect(routes.map(({ route }) => route.url)).toContain(
      '/api/admin/staff/:staffId/reset-second-factor',
    );
  });

  it('refuses a key another action used, 409, on every keyed route, and writes nothing', async () => {
    // A real action takes the key first: sessions ended on an account no swept request names.
    const dealer = await plainDealer(t);
    const usedKey = crypto.randomUUID();
    const first = await consolePost(
      t,
      browser,
      admin,
      `/api/admin/accounts/${dealer.id}/end-sessions`,
      {
        requestKey: usedKey,
      },
    );
    expect(first.statusCode, first.body).toBe(200);

    const before = await rowCounts(t);
    const problems: string[] = [];
    for (const { route, body, params } of keyedRoutes()) {
      const samples = fc.sample(
        fc.tuple(validValue(body), params ? validValue(params) : fc.constant({})),
        { numRuns: BODY_TRIES, seed: 42 },
      );
      let answered = false;
      for (const [payload, values] of samples) {
        const url = route.url.replace(/:(\w+)/g, (_, name: string) => {
          const value = String((values as Record<string, unknown>)[name] ?? 'x');
          // Never the account whose key it is: a repeat there would be that action's own replay.
          return encodeURIComponent(value === dealer.id ? crypto.randomUUID() : value);
        });
        const response = await consolePost(t, browser, admin, url, {
          ...(payload as object),
          requestKey: usedKey,
        });
        if (response.statusCode === 400) continue; // a generated body its refinements refuse
        answered = true;
        const code = response.json<{ code?: string }>().code;
        if (response.statusCode !== 409 || code !== 'ACTION_NOT_ALLOWED') {
          problems.push(`${route.method} ${route.url} → ${response.statusCode} ${code ?? ''}`);
        }
        break;
      }
      if (!answered)
        problems.push(`${route.method} ${route.url}: no accepted body in ${BODY_TRIES}`);
    }
    expect(problems).toEqual([]);
    expect(await rowCounts(t)).toEqual(before);
    expect(t.conformanceFailures).toEqual([]);
  });
});
