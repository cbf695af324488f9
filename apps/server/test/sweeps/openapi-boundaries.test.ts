import { randomUUID } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptchaVerifier } from '../../src/adapters/captcha/captcha-verifier.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { STAFF_SESSION_COOKIE } from '../../src/plugins/staff-session.ts';
import { validValue, type JsonSchema } from './fuzz-arbitraries.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { createAccount, sessionFor } from '../factories/sign-in.ts';
import { staffSessionFor } from '../factories/staff-sign-in.ts';

/**
 * Issue 27 #2 (docs/decisions/045): the OpenAPI description is generated from the schemas that
 * validate, so a client that trusts it is never surprised. From the served document alone, for
 * every operation and every field of its body, query and path, this test derives the documented
 * examples and the boundary values (each enum value and one outside, the ends of each range and
 * one past them, the lengths at and past each limit, values that match each pattern and one that
 * does not, the field left out, another type), lets the document itself (Ajv, JSON Schema
 * 2020-12) say whether it accepts each request, and sends it:
 * - accepted by the document: the server names no error on that field;
 * - refused by the document: 400 in our error body (decision 005), naming the field.
 * Fields where the document and the server still disagree are listed in NOT_YET_DOCUMENTED with
 * the cause; the test fails on any other field that disagrees, and on a listed one that no longer
 * does (so the list only shrinks). `SHOW_BOUNDARY_PROBLEMS=1` prints every disagreement, the
 * listed ones too. The rules JSON Schema can carry are in the document (docs/decisions/053);
 * what is listed is what it cannot say.
 */

const CLOCK = 'the offered years move with the clock (the last five business years)';
const NO_REPEATS =
  'a comma-separated list: that no code repeats and a simulcast comes with its base, a pattern without lookahead cannot say';
const INSTANT =
  'an instant from 1970 to the end of 9999 once its offset is applied: the pattern would compare the time with the offset';
const EXPIRY_CLOCK = 'an expiry MMYY whose month has not ended: the clock';

/** `METHOD path part field` → why the document and the server still disagree there. */
const NOT_YET_DOCUMENTED: Record<string, string> = {
  'GET /api/admin/accounts/{userId}/subscription-change query codes': NO_REPEATS,
  'GET /api/users/subscriptions/change query codes': NO_REPEATS,
  'GET /api/admin/overview query to':
    'the months up to this one, at most 24 from the first: the clock, and a rule between query parameters',
  'GET /api/admin/finance/movements.csv query month':
    'a month, or a first and a last date: a rule between query parameters, which OpenAPI describes one by one',
  'GET /api/admin/audit.csv query from': INSTANT,
  'GET /api/admin/audit.csv query to': INSTANT,
  'GET /api/users/paymentHistory query year': CLOCK,
  'GET /api/users/paymentHistory/receipts.zip query year': CLOCK,
  'PUT /api/users/current body verifyAutoCheckCredentials':
    'the query’s flag, when sent, takes the place of the body’s: a rule between the query and the body',
  'PUT /api/users/paymentProfile body creditCardExpiration': EXPIRY_CLOCK,
};

/**
 * Operations whose accepted request changes the account's state so that the next request is
 * refused by that state before its body is read (a cancelled account may not cancel): each
 * request comes from a new account.
 */
const ONE_ACCOUNT_PER_REQUEST = new Set(['PATCH /api/users/cancel']);

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

/** The captcha passes: a field's boundary, not the captcha, decides the answer. */
const PASSING_CAPTCHA: CaptchaVerifier = {
  kind: 'altcha',
  publicConfig: () => ({ kind: 'altcha', challengeUrl: '/api/captcha/challenge' }),
  verify: async () => ({
    ok: true,
    replayKey: randomUUID(),
    expiresAt: new Date(Date.now() + 600_000),
  }),
};

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema & { examples?: unknown[]; example?: unknown };
}
interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
type Part = 'body' | 'query' | 'path';
type Schema = JsonSchema & {
  examples?: unknown[];
  example?: unknown;
  default?: unknown;
  format?: string;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  additionalProperties?: unknown;
};

/** One part of a request (body, query, path) as one object schema. */
function partSchemas(op: Operation): Partial<Record<Part, Schema>> {
  const parts: Partial<Record<Part, Schema>> = {};
  const body = op.requestBody?.content['application/json']?.schema;
  if (body) parts.body = body as Schema;
  for (const where of ['query', 'path'] as const) {
    const list = (op.parameters ?? []).filter((p) => p.in === where);
    if (list.length === 0) continue;
    parts[where] = {
      type: 'object',
      properties: Object.fromEntries(list.map((p) => [p.name, p.schema])),
      required: list.filter((p) => p.required).map((p) => p.name),
    };
  }
  return parts;
}

const OMIT = Symbol('omitted');
const repeat = (n: number) => 'a'.repeat(Math.max(0, n));

/** The documented examples and boundary values of one field's schema. */
function candidates(schema: Schema, name: string, seed: number): unknown[] {
  const values: unknown[] = [
    ...(schema.examples ?? []),
    ...('example' in schema ? [schema.example] : []),
  ];
  if ('default' in schema) values.push(schema.default);
  if ('const' in schema) values.push(schema.const, `${String(schema.const)}~`);
  if (schema.enum) values.push(...schema.enum, 'not-one-of-them');
  for (const alternative of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    values.push(...candidates(alternative as Schema, name, seed));
  }
  const types = [schema.type ?? []].flat();
  if (types.includes('string')) {
    const min = schema.minLength ?? 0;
    const max = schema.maxLength;
    if (schema.pattern) {
      values.push(
        ...fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { numRuns: 3, seed }),
        '!',
        `${String(fc.sample(validValue(schema, name), { numRuns: 1, seed })[0] ?? '')}!`,
      );
    } else {
      values.push(repeat(min), repeat(min + 1));
      if (min > 0) values.push(repeat(min - 1));
    }
    // Lengths at and past the limit, from a value the pattern accepts when there is one.
    if (max !== undefined && max <= 20_000) {
      const sample = fc.sample(validValue(schema, name), { numRuns: 5, seed });
      const base = String(sample.find((s) => typeof s === 'string' && s.length > 0) ?? 'a');
      values.push(repeat(max), repeat(max + 1), base.padEnd(max + 1, base.slice(-1) || 'a'));
    }
    values.push(12345);
  }
  if (types.includes('integer') || types.includes('number')) {
    const step = types.includes('integer') ? 1 : 0.5;
    for (const end of [schema.minimum, schema.maximum]) {
      if (end !== undefined) values.push(end);
    }
    if (schema.minimum !== undefined) values.push(schema.minimum - step);
    if (schema.maximum !== undefined) values.push(schema.maximum + step);
    if (schema.exclusiveMinimum !== undefined)
      values.push(schema.exclusiveMinimum, schema.exclusiveMinimum + step);
    if (schema.exclusiveMaximum !== undefined)
      values.push(schema.exclusiveMaximum, schema.exclusiveMaximum - step);
    if (types.includes('integer')) values.push(1.5);
    values.push('x');
  }
  if (types.includes('boolean')) values.push(true, false, 'yes');
  if (types.includes('array')) {
    const item = fc.sample(validValue(schema.items), { numRuns: 1, seed })[0];
    const min = schema.minItems ?? 0;
    values.push(Array(min).fill(item));
    if (min > 0) values.push(Array(min - 1).fill(item));
    if (schema.maxItems !== undefined && schema.maxItems < 100) {
      values.push(Array(schema.maxItems + 1).fill(item));
    }
    values.push('x');
  }
  if (types.includes('object')) values.push('x');
  values.push(OMIT);
  return values;
}

/** The wire form of a query or path value. */
function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

describe('the OpenAPI description’s boundaries, sent to the server', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let doc: { paths: Record<string, Record<string, Operation>>; components?: object };
  let address = 0;

  beforeAll(async () => {
    t = await buildTestApp({ captcha: PASSING_CAPTCHA });
    browser = await t.browser();
    doc = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
  }, 60_000);
  afterAll(() => t.close());

  const nextAddress = () => {
    address += 1;
    return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
  };
  const validators = new Map<Schema, ValidateFunction>();
  const validatorOf = (schema: Schema) => {
    let validate = validators.get(schema);
    if (!validate) {
      validate = ajv.compile({ ...schema, components: doc.components ?? {} });
      validators.set(schema, validate);
    }
    return validate;
  };
  const accepts = (schema: Schema, value: unknown) => validatorOf(schema)(value);
  /**
   * Whether the document refuses a value by a rule between fields (`if`/`then`, `not`,
   * `required` under them): one not under a single field's own schema.
   */
  const refusedBetweenFields = (schema: Schema, value: unknown) => {
    const validate = validatorOf(schema);
    return (
      !validate(value) &&
      (validate.errors ?? []).some(
        (error) =>
          !/^#\/(?:properties\/|required$|additionalProperties$|type$)/.test(error.schemaPath),
      )
    );
  };

  it('accepts what the document accepts and refuses, 400 in our error body, what it refuses, on every operation', async () => {
    const started = Date.now();
    const problems: string[] = [];
    let sent = 0;
    let seed = 1;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const parts = partSchemas(op);
        if (Object.keys(parts).length === 0) continue;
        const requirement = op.security?.[0] ?? {};
        let cookie = browser.cookie;
        let accounts = 0;
        const signIn = async () => {
          accounts += 1;
          const email = `bounds-${seed}-${accounts}@example.com`;
          const { user } = await createAccount(t, { email });
          return `${browser.cookie}; ${SESSION_COOKIE}=${await sessionFor(t, user.id)}`;
        };
        const oneAccountPerRequest = ONE_ACCOUNT_PER_REQUEST.has(`${method.toUpperCase()} ${path}`);
        if ('staffCookie' in requirement) {
          cookie += `; ${STAFF_SESSION_COOKIE}=${(await staffSessionFor(t, 'admin')).rawId}`;
        } else if ('sessionCookie' in requirement) {
          cookie = await signIn();
        }
        // One request the document accepts, part by part: the base each boundary is set into.
        const base: Partial<Record<Part, Record<string, unknown>>> = {};
        for (const [part, schema] of Object.entries(parts) as [Part, Schema][]) {
          const found = fc
            .sample(validValue(schema), { numRuns: 200, seed: seed++ })
            .find((value) => accepts(schema, value));
          if (found === undefined) {
            problems.push(`${method.toUpperCase()} ${path}: no ${part} the document accepts`);
          }
          base[part] = (found ?? {}) as Record<string, unknown>;
        }
        const send = async (values: typeof base) => {
          let url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
            encodeURIComponent(asText(values.path?.[name])),
          );
          const query = Object.entries(values.query ?? {})
            .map(
              ([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(asText(value))}`,
            )
            .join('&');
          if (query) url += `?${query}`;
          sent += 1;
          return t.app.inject({
            method: method.toUpperCase() as 'GET',
            url,
            remoteAddress: nextAddress(),
            headers: {
              cookie: oneAccountPerRequest ? await signIn() : cookie,
              'x-csrf-token': browser.token,
              ...(parts.body ? { 'content-type': 'application/json' } : {}),
            },
            ...(parts.body ? { payload: JSON.stringify(values.body) } : {}),
          });
        };
        for (const [part, schema] of Object.entries(parts) as [Part, Schema][]) {
          for (const [name, field] of Object.entries(schema.properties ?? {})) {
            const label = `${method.toUpperCase()} ${path} ${part} ${name}`;
            const tried = new Set<string>();
            for (const value of candidates(field as Schema, name, seed)) {
              const key = value === OMIT ? 'omitted' : JSON.stringify(value);
              if (tried.has(key)) continue;
              tried.add(key);
              const partValue = { ...base[part] };
              if (value === OMIT) delete partValue[name];
              else partValue[name] = value;
              // A path segment cannot be empty or absent: the router has no route for it.
              if (part === 'path' && (value === OMIT || asText(value) === '')) continue;
              // On the wire a query or path value is text: the document judges that text.
              const judged =
                part === 'body'
                  ? partValue
                  : Object.fromEntries(
                      Object.entries(partValue).map(([k, v]) => [
                        k,
                        coerce(schema.properties?.[k] as Schema, asText(v)),
                      ]),
                    );
              const documented = accepts(schema, judged);
              const response = await send({ ...base, [part]: partValue });
              const body = parsed(response.body);
              const names = (body.errors ?? []).filter(
                (e) => e.source === name || e.source.startsWith(`${name}.`),
              );
              const shown = `${label} = ${key.slice(0, 60)} → ${response.statusCode} ${body.code ?? ''}`;
              // A rule of the request (a spent link, a declined card) is not the schema's.
              const schemaRefused =
                response.statusCode === 400 &&
                body.code === 'VALIDATION_FAILED' &&
                names.length > 0;
              if (documented && schemaRefused) problems.push(`${shown}: the document accepts it`);
              if (!documented) {
                const envelope =
                  response.statusCode === 400 &&
                  body.statusCode === 400 &&
                  typeof body.code === 'string' &&
                  typeof body.message === 'string' &&
                  Array.isArray(body.errors);
                // A rule between fields is one refusal of several fields: the server names the
                // one its message speaks of, which need not be the field this value was set in.
                const named =
                  names.length > 0 ||
                  (refusedBetweenFields(schema, judged) && (body.errors ?? []).length > 0);
                if (!envelope || !named) problems.push(`${shown}: the document refuses it`);
              }
            }
          }
        }
      }
    }
    console.warn(`${sent} requests in ${Date.now() - started} ms`);
    if (process.env.SHOW_BOUNDARY_PROBLEMS) console.warn(problems.join('\n'));
    expect(sent).toBeGreaterThan(500);
    const labelOf = (problem: string) => problem.split(' = ')[0]!;
    expect(problems.filter((problem) => !NOT_YET_DOCUMENTED[labelOf(problem)])).toEqual([]);
    // A listed field that agrees now leaves the list.
    const disagreeing = new Set(problems.map(labelOf));
    expect(Object.keys(NOT_YET_DOCUMENTED).filter((label) => !disagreeing.has(label))).toEqual([]);
    expect(t.conformanceFailures).toEqual([]);
  }, 300_000);
});

/** A query or path text as the server's schema reads it: a number where the document says so. */
function coerce(schema: Schema | undefined, text: string): unknown {
  const types = [schema?.type ?? []].flat();
  if (
    (types.includes('integer') || types.includes('number')) &&
    text.trim() !== '' &&
    !Number.isNaN(Number(text))
  ) {
    return Number(text);
  }
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** An answer's JSON body, or nothing when it is not JSON (a file, a page). */
function parsed(text: string): {
  statusCode?: number;
  code?: string;
  message?: string;
  errors?: { source: string }[];
} {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}
