import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_KEY_FIELDS } from '@dealerpass/domain/request-key';
import { LONGEST_PATH_PARAMETER, MAX_PARAM_LENGTH } from '../../src/plugins/path-parameters.ts';
import { isStaffAccess, isUnsafeMethod } from '../../src/plugins/route-access.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { openApiPath } from '../sweeps/openapi-conformance.ts';

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}
type Document = {
  openapi: string;
  servers?: { url: string }[];
  tags?: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string; in: string; name: string }>;
    schemas?: Record<string, unknown>;
  };
};

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const BROKEN = '/api/test-only/broken';

/** The document as the server serves it, without the route this file adds for itself. */
function served(doc: Document): Document {
  const copy = structuredClone(doc);
  delete copy.paths[BROKEN];
  return copy;
}

/**
 * The OpenAPI description (issue 17, docs/decisions/023): a valid OpenAPI 3.1 document that
 * holds every /api route of the route table (derived from it, so a route added later is checked
 * too) with a summary, its security and its error responses. That real answers match it is
 * checked on every answer of every API test (test/sweeps/openapi-conformance.ts, in the helper).
 */
describe('the OpenAPI description', () => {
  let t: TestApp;
  let doc: Document;
  beforeAll(async () => {
    t = await buildTestApp({
      checkTestRoutes: true,
      // A route whose answer breaks its own description, to show the conformance check fails.
      routes: (app) =>
        app.get(
          '/api/test-only/broken',
          {
            config: { access: 'public' },
            schema: { summary: 'test', response: { 200: z.object({ data: z.string() }) } },
          },
          async (_request, reply) =>
            reply.type('application/json').send(JSON.stringify({ data: 42 })),
        ),
    });
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    expect(response.statusCode).toBe(200);
    doc = response.json<Document>();
  });
  afterAll(() => t.close());

  /** The route table's /api routes, as (method, path) pairs. */
  function apiRoutes() {
    return t.app.routeTable.filter(
      (route) =>
        route.url.startsWith('/api/') && route.method !== 'HEAD' && route.method !== 'OPTIONS',
    );
  }

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');
  });

  it('holds every registered /api route, and nothing else (no pages, /oidc, sandboxes’ endpoints)', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const missing = routes.filter(
      (route) => !doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()],
    );
    expect(missing.map((route) => `${route.method} ${route.url}`)).toEqual([]);
    const outside = Object.keys(doc.paths).filter((path) => !path.startsWith('/api/'));
    expect(outside).toEqual([]);
    // The routes outside /api are there, and left out.
    expect(t.app.routeTable.some((route) => route.url.startsWith('/oidc'))).toBe(true);
    expect(t.app.routeTable.some((route) => route.url.startsWith('/carfax-sandbox'))).toBe(true);
  });

  it('gives every operation a summary, tags, its security and its error responses', () => {
    const problems: string[] = [];
    for (const route of apiRoutes()) {
      if (route.url === '/api/test-only/broken') continue;
      const op = doc.paths[openApiPath(route.url)]![route.method.toLowerCase()]!;
      const label = `${route.method} ${route.url}`;
      if (!op.summary) problems.push(`${label}: no summary`);
      if (!op.tags?.length) problems.push(`${label}: no tags`);
      const statuses = Object.keys(op.responses);
      if (!statuses.some((s) => /^2\d\d$/.test(s))) problems.push(`${label}: no success response`);
      const requirement = op.security?.[0] ?? {};
      const signedIn = route.access !== 'public';
      const csrf = isUnsafeMethod(route.method) && route.caller === 'web-app';
      if (op.security === undefined) problems.push(`${label}: no security`);
      const staff = isStaffAccess(route.access);
      if ((signedIn && !staff) !== 'sessionCookie' in requirement)
        problems.push(`${label}: session cookie`);
      if (staff !== 'staffCookie' in requirement) problems.push(`${label}: staff cookie`);
      if (csrf !== 'csrfHeader' in requirement) problems.push(`${label}: CSRF header`);
      const expected = ['429'];
      if (signedIn) expected.push('401', '403');
      if (csrf) expected.push('403', '415');
      if (route.schema?.body || isUnsafeMethod(route.method)) expected.push('400');
      // A write meets a unique value a concurrent request took (409 naming the field), or loses
      // a race more often than its transaction is retried (503, docs/decisions/028).
      if (isUnsafeMethod(route.method)) expected.push('409', '503');
      // A keyed action refuses a key already used for another action (fuzzing found one route
      // that did not say so): the status follows from the body, read here from the description.
      const body = (
        op as {
          requestBody?: { content?: Record<string, { schema?: { properties?: object } }> };
        }
      ).requestBody?.content?.['application/json']?.schema?.properties;
      if (body && REQUEST_KEY_FIELDS.some((field) => field in body)) expected.push('409');
      for (const status of expected) {
        const schema = op.responses[status]?.content?.['application/json']?.schema;
        if (!schema) problems.push(`${label}: no ${status}`);
        else if (status !== '403' || !signedIn) {
          if (schema.$ref !== '#/components/schemas/ApiError') {
            problems.push(`${label}: ${status} is not the API error body`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(doc.components.securitySchemes).toMatchObject({
      sessionCookie: { type: 'apiKey', in: 'cookie', name: '__Host-dp-session' },
      staffCookie: { type: 'apiKey', in: 'cookie', name: '__Host-dp-staff' },
      csrfHeader: { type: 'apiKey', in: 'header', name: 'x-csrf-token' },
      csrfCookie: { type: 'apiKey', in: 'cookie', name: '__Host-dp-csrf' },
    });
  });

  it('bounds every number a request can carry to what a PostgreSQL integer holds', () => {
    // Fuzzing sent a promotion's amount of 7,106,642,592,201,201 cents: its schema had no upper
    // bound and the database's integer overflowed (a 500). Every number in every request
    // schema, body, query and path alike, has both bounds inside the integer column's range.
    const NOT_STORED: Record<string, string> = {
      'POST /api/log': 'a client’s error report, written to the log and never to the database',
    };
    const INT_MIN = -(2 ** 31);
    const INT_MAX = 2 ** 31 - 1;
    type Schema = {
      type?: string | string[];
      minimum?: number;
      maximum?: number;
      exclusiveMinimum?: number;
      exclusiveMaximum?: number;
      properties?: Record<string, Schema>;
      items?: Schema;
      anyOf?: Schema[];
      oneOf?: Schema[];
      allOf?: Schema[];
    };
    const unbounded: string[] = [];
    const walk = (schema: Schema | undefined, at: string) => {
      if (!schema) return;
      const types = [schema.type ?? []].flat();
      if (types.includes('integer') || types.includes('number')) {
        const min = schema.minimum ?? schema.exclusiveMinimum;
        const max = schema.maximum ?? schema.exclusiveMaximum;
        if (min === undefined || max === undefined || min < INT_MIN || max > INT_MAX) {
          unbounded.push(`${at}: ${min ?? '-∞'} to ${max ?? '∞'}`);
        }
      }
      for (const [name, child] of Object.entries(schema.properties ?? {})) {
        walk(child, `${at}.${name}`);
      }
      walk(schema.items, `${at}[]`);
      for (const child of [
        ...(schema.anyOf ?? []),
        ...(schema.oneOf ?? []),
        ...(schema.allOf ?? []),
      ])
        walk(child, at);
    };
    let numbers = 0;
    const count = (schema: unknown) => {
      numbers += (
        JSON.stringify(schema ?? {}).match(/"type":(\["[^\]]*)?"(integer|number)"/g) ?? []
      ).length;
    };
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (NOT_STORED[`${method.toUpperCase()} ${path}`]) continue;
        const extended = op as Operation & {
          requestBody?: { content?: Record<string, { schema?: Schema }> };
          parameters?: { name: string; schema?: Schema }[];
        };
        for (const [type, content] of Object.entries(extended.requestBody?.content ?? {})) {
          count(content.schema);
          walk(content.schema, `${method.toUpperCase()} ${path} body(${type})`);
        }
        for (const parameter of extended.parameters ?? []) {
          count(parameter.schema);
          walk(parameter.schema, `${method.toUpperCase()} ${path} ${parameter.name}`);
        }
      }
    }
    expect(numbers).toBeGreaterThan(5);
    expect(unbounded).toEqual([]);
  });

  it('is generated from the routes’ zod schemas (bodies, parameters, responses)', () => {
    const signup = doc.paths['/api/v2/signup']!.post as unknown as {
      requestBody: { content: { 'application/json': { schema: { properties: object } } } };
    };
    expect(Object.keys(signup.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['email', 'firstName', 'forwardTo']),
    );
    const current = doc.paths['/api/users/current']!.get!.responses['200']!.content![
      'application/json'
    ]!.schema as { properties: { data: { properties: object } } };
    expect(Object.keys(current.properties.data.properties)).toEqual(
      expect.arrayContaining(['email', 'accountStatus']),
    );
  });

  it('names every operation with a unique, readable operationId, declared by its route', () => {
    const ids: string[] = [];
    const problems: string[] = [];
    for (const [path, operations] of Object.entries(served(doc).paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const id = op.operationId;
        // A verb first, in camel case; not the path spelled out (`postApiAdminAccountsByUserId…`).
        if (
          !id ||
          !/^[a-z]+(?:[A-Z0-9][a-z0-9]*)*$/.test(id) ||
          /^(get|post|put|patch|delete)Api[A-Z]|By[A-Z]\w*Id/.test(id)
        ) {
          problems.push(`${method.toUpperCase()} ${path}: ${id ?? 'no operationId'}`);
        }
        if (id) ids.push(id);
      }
    }
    expect(problems).toEqual([]);
    expect(ids.length).toBeGreaterThan(70);
    expect(new Set(ids).size).toBe(ids.length);
    // Stable: the names a generated client calls; a few pinned so a rename is seen in review.
    expect(
      doc.paths['/api/admin/accounts/{userId}/payments/{paymentId}/refund']!.post!.operationId,
    ).toBe('refundPayment');
    expect(doc.paths['/api/v2/signup']!.post!.operationId).toBe('signUp');
    expect(doc.paths['/api/users/current']!.get!.operationId).toBe('getCurrentUser');
  });

  it('has unique tags, declared once each, a server, and no component nothing refers to', () => {
    const names = (doc.tags ?? []).map((tag) => tag.name);
    expect(new Set(names).size).toBe(names.length);
    const used = new Set(
      Object.values(served(doc).paths).flatMap((ops) =>
        Object.values(ops).flatMap((op) => op.tags ?? []),
      ),
    );
    expect([...used].filter((tag) => !names.includes(tag))).toEqual([]);
    expect(doc.servers?.[0]?.url).toMatch(/^https?:\/\//);
    const text = JSON.stringify(served(doc).paths);
    const unused = Object.keys(doc.components.schemas ?? {}).filter(
      (name) =>
        !text.includes(`"#/components/schemas/${name}"`) &&
        !JSON.stringify(doc.components.schemas).includes(`"#/components/schemas/${name}"`),
    );
    expect(unused).toEqual([]);
  });

  it('is clean for Redocly’s recommended rules (redocly.yaml says why each rule turned off is)', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(folder, 'openapi.json');
      await writeFile(file, JSON.stringify(served(doc)));
      const cli = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
      const run = await promisify(execFile)(
        process.execPath,
        [cli, 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format=json'],
        // Offline: no usage report, no update check.
        {
          cwd: ROOT,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
          maxBuffer: 16 * 1024 * 1024,
        },
      ).catch((error: { stdout?: string; stderr?: string }) => ({
        stdout: error.stdout ?? '',
        stderr: error.stderr ?? '',
      }));
      const report = JSON.parse(run.stdout) as {
        problems: { ruleId: string; message: string; location?: { pointer?: string }[] }[];
      };
      expect(
        report.problems.map((p) => `${p.ruleId}: ${p.message} ${p.location?.[0]?.pointer ?? ''}`),
      ).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);

  it('sets the router’s parameter limit from the longest documented path parameter; over it, 414 in our error body, as documented', async () => {
    let longest = 0;
    const withParams: string[] = [];
    for (const [path, operations] of Object.entries(served(doc).paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const parameters =
          (op as { parameters?: { in: string; schema?: { maxLength?: number } }[] }).parameters ??
          [];
        const inPath = parameters.filter((p) => p.in === 'path');
        if (inPath.length === 0) continue;
        withParams.push(`${method} ${path}`);
        for (const p of inPath) longest = Math.max(longest, p.schema?.maxLength ?? 0);
        if (!op.responses['414']) withParams.push(`${method} ${path}: 414 not documented`);
      }
    }
    expect(withParams.filter((line) => line.includes('not documented'))).toEqual([]);
    expect(LONGEST_PATH_PARAMETER).toBe(2048);
    expect(longest).toBe(LONGEST_PATH_PARAMETER);
    const url = (code: string) => `/api/v2/oauth/carfax/tokens/${code}/x`;
    // The longest documented value, every character percent-encoded, reaches the route.
    const encoded = await t.app.inject({
      method: 'GET',
      url: url('%41'.repeat(LONGEST_PATH_PARAMETER)),
    });
    expect(encoded.statusCode).not.toBe(414);
    // One character more than the schema allows: the schema's own 400 naming the field.
    const over = await t.app.inject({
      method: 'GET',
      url: `/api/users/userIdTaken/${'a'.repeat(250)}@x.com`,
    });
    expect(over.statusCode).toBe(400);
    const beyond = await t.app.inject({
      method: 'GET',
      url: url('a'.repeat(MAX_PARAM_LENGTH + 1)),
    });
    expect(beyond.statusCode).toBe(414);
    expect(beyond.json()).toEqual({
      statusCode: 414,
      code: 'URI_TOO_LONG',
      message: 'The address of the request is too long.',
      errors: [],
    });
  });

  it('catches an answer that breaks its documented schema', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test-only/broken' });
    expect(response.statusCode).toBe(200);
    expect(t.conformanceFailures).toEqual([
      expect.stringMatching(/^GET \/api\/test-only\/broken → 200: the body does not match/),
    ]);
    t.conformanceFailures.length = 0;
  });

  it('serves the reference UI from our origin under a CSP of its own', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(page.body).not.toMatch(/<script>(?!<\/script>)/);
    for (const src of page.body.matchAll(/(?:src|href)="([^"]+)"/g)) {
      const asset = await t.app.inject({ method: 'GET', url: src[1]! });
      expect(asset.statusCode, src[1]).toBe(200);
    }
    const unknown = await t.app.inject({ method: 'GET', url: '/api/docs/assets/package.json' });
    expect(unknown.statusCode).toBe(400);
  });
});

describe('a production server', () => {
  it('serves no description and no reference UI', async () => {
    const t = await buildTestApp({
      env: {
        APP_ENV: 'production',
        SECRET_KEY: randomBytes(32).toString('base64'),
        PUBLIC_URL: 'https://dealerpass.example',
        ALLOW_SANDBOX_IN_PRODUCTION: 'true',
      },
    });
    try {
      for (const url of ['/api/docs', '/api/docs/openapi.json']) {
        expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
      }
    } finally {
      await t.close();
    }
  });
});
