import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isStaffAccess,
  isUnsafeMethod,
  type RouteTableEntry,
} from '../../src/plugins/route-access.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { plainDealer, staffCookies } from '../factories/admin-fixtures.ts';
import { jsonSchemaOf, validValue, type JsonSchema } from './fuzz-arbitraries.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { freshAddress, rowCounts, sweptRoutes } from './route-sweeps.ts';
import { sessionFor } from '../factories/sign-in.ts';

/**
 * Dates at the edges of what a format allows (RFC 3339 has a year 0000; PostgreSQL does not,
 * and an offset moves 0001-01-01 into year 0). The audit export answered 500 to them.
 */
const EDGE_INSTANTS = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00+14:00',
  '1969-12-31T23:59:59Z',
  '9999-12-31T23:59:59-14:00',
  '9999-12-31T23:59:59.999Z',
];
const EDGE_DATES = ['0000-01-01', '0001-01-01', '1582-10-10', '9999-12-31'];

interface DateField {
  route: RouteTableEntry;
  part: 'body' | 'querystring';
  name: string;
  values: string[];
  schema: JsonSchema;
  params: JsonSchema | null;
}

/**
 * Every date or date-time a request can carry, found in the route table's schemas (body and
 * query), is sent at the edges of its format: the answer is a 4xx or a success, never a 5xx,
 * and a refused one writes nothing.
 */
describe('dates over the route table', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let staffCookie: string;
  let dealerCookie: string;

  beforeAll(async () => {
    t = await buildTestApp();
    browser = await t.browser();
    staffCookie = (await staffCookies(t)).admin.cookie;
    const dealer = await plainDealer(t);
    dealerCookie = `${SESSION_COOKIE}=${await sessionFor(t, dealer.id)}`;
  }, 60_000);
  afterAll(() => t.close());

  function dateFields(): DateField[] {
    return sweptRoutes(t).flatMap((route) => {
      const schemas = route.schema as Record<string, unknown> | undefined;
      const params = jsonSchemaOf(schemas?.params);
      return (['body', 'querystring'] as const).flatMap((part) => {
        const schema = jsonSchemaOf(schemas?.[part]);
        return Object.entries(schema?.properties ?? {}).flatMap(([name, field]) => {
          const formats = [field, ...(field.anyOf ?? []), ...(field.allOf ?? [])].map(
            (each) => each.format,
          );
          const values = formats.includes('date-time')
            ? EDGE_INSTANTS
            : formats.includes('date') || /Date$/.test(name)
              ? EDGE_DATES
              : [];
          return values.length > 0 && schema ? [{ route, part, name, values, schema, params }] : [];
        });
      });
    });
  }

  it('finds the date fields in the route table', () => {
    const fields = dateFields().map(({ route, name }) => `${route.method} ${route.url} ${name}`);
    expect(fields).toEqual(
      expect.arrayContaining([
        'GET /api/admin/audit.csv from',
        'POST /api/admin/promotions expiresAt',
        'POST /api/admin/prices effectiveDate',
      ]),
    );
  });

  it('answers every edge date below 500, and a refused one writes nothing', async () => {
    const failures: string[] = [];
    let refused = 0;
    for (const field of dateFields()) {
      const { route } = field;
      const [[rest, values]] = fc.sample(
        fc.tuple(
          validValue(field.schema),
          field.params ? validValue(field.params) : fc.constant({}),
        ),
        { numRuns: 1, seed: 7 },
      ) as [[Record<string, unknown>, Record<string, unknown>]];
      const path = route.url.replace(/:(\w+)/g, (_, name: string) =>
        encodeURIComponent(String(values[name] ?? 'x')),
      );
      const session = isStaffAccess(route.access)
        ? staffCookie
        : route.access === 'public'
          ? ''
          : dealerCookie;
      for (const value of field.values) {
        const before = await rowCounts(t);
        const input = { ...rest, [field.name]: value };
        const query =
          field.part === 'querystring'
            ? `?${new URLSearchParams(
                Object.entries(input).map(([key, each]): [string, string] => [key, String(each)]),
              ).toString()}`
            : '';
        const response = await t.app.inject({
          method: route.method,
          url: `${path}${query}`,
          remoteAddress: freshAddress(),
          headers: {
            cookie: [browser.cookie, session].filter(Boolean).join('; '),
            'x-csrf-token': browser.token,
            ...(field.part === 'body' ? { 'content-type': 'application/json' } : {}),
          },
          ...(field.part === 'body' && isUnsafeMethod(route.method)
            ? { payload: JSON.stringify(input) }
            : {}),
        });
        if (response.statusCode >= 500) {
          failures.push(
            `${route.method} ${route.url} ${field.name}=${value} → ${response.statusCode}`,
          );
        } else if (response.statusCode >= 400) {
          refused += 1;
          if (JSON.stringify(await rowCounts(t)) !== JSON.stringify(before)) {
            failures.push(`${route.method} ${route.url} ${field.name}=${value}: refused, wrote`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(refused).toBeGreaterThan(0);
  });
});
