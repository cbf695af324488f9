import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import swagger from '@fastify/swagger';
import type { FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SESSION_FAILURE_BODIES } from '@dealerpass/domain/account/session-failure';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { REQUEST_KEY_FIELDS } from '@dealerpass/domain/request-key';
import { CSRF_COOKIE, CSRF_HEADER } from './csrf.ts';
import {
  isStaffAccess,
  isUnsafeMethod,
  type TRouteAccess,
  type TRouteCaller,
} from './route-access.ts';
import { SESSION_COOKIE } from './session.ts';
import { STAFF_SESSION_COOKIE } from './staff-session.ts';

/** Where the description and its reference UI are served (demo, development, test). */
export const API_DOCS_PATH = '/api/docs';
export const OPENAPI_JSON_PATH = `${API_DOCS_PATH}/openapi.json`;

/**
 * The error body of decision 005, as the OpenAPI description shows it: one component every
 * error response refers to.
 */
export const ZApiErrorSchema = z
  .object({
    statusCode: z.number().int(),
    code: z.enum(Object.values(ERROR_CODES) as [string, ...string[]]),
    message: z.string(),
    errors: z.array(
      z.object({
        source: z.string(),
        message: z.string(),
        details: z.string().optional(),
      }),
    ),
  })
  .meta({ id: 'ApiError', description: 'The error body (docs/decisions/005)' });

/** A 403 of the session guard is a bare JSON string the web app reads (001 §4, DECISIONS R6). */
const ZSessionFailureSchema = z
  .enum(Object.values(SESSION_FAILURE_BODIES) as [string, ...string[]])
  .meta({ id: 'SessionFailure', description: 'The session is invalid, expired or replaced' });

const ZForbiddenSchema = z.union([ZApiErrorSchema, ZSessionFailureSchema]);

/** What each error status means on our API (decision 005's body; 016's access layer). */
const ERROR_RESPONSES: Record<number, string> = {
  400: 'Validation failed: `errors` has one entry per field (`source`), or a rule of the request was broken',
  401: 'No session (the session cookie is missing)',
  402: 'The card was declined, or there is no card on file to charge (`code` says which)',
  403: 'Refused: the session is invalid or was replaced (a bare JSON string), the CSRF token is missing or wrong, or the account’s state does not allow this call',
  404: 'Not found',
  409: 'Conflict with the current state (the address is in use, a sign-up is in progress, the selection a change was based on changed since, a unique value another request took at the same moment: `errors` names the field), or the request key was already sent with another target or body (REQUEST_KEY_REUSED)',
  413: 'The body is larger than this route accepts',
  414: 'A path parameter is longer than the router takes (three times the longest documented parameter, as if every character were percent-encoded; docs/decisions/045)',
  415: 'The body is not JSON',
  429: 'Too many requests from this client address',
  502: 'The payment gateway or the integration’s provider failed',
  503: 'A service this call needs is unavailable, or the database kept refusing the change as a conflict with concurrent ones after its retries (docs/decisions/028): nothing was written, try again',
};

/** The documentation of one route, beyond its zod schemas (see `documentRoute`). */
declare module 'fastify' {
  interface FastifySchema {
    /**
     * Error statuses this route answers besides the ones its declaration implies (400 for a
     * schema, 401/403 for a session, 403/415 for the CSRF and JSON-only checks, 409, 413 and 503
     * for a write, 429, 409 for a keyed body).
     */
    errors?: readonly number[];
  }
}

const zodTransform = createJsonSchemaTransform({});

/**
 * Whether a route's body carries a request key (`REQUEST_KEY_FIELDS`). A keyed request answers
 * 409 REQUEST_KEY_REUSED when its key was already sent with another action, target or body
 * (`oncePerKey`, docs/decisions/031), whatever the route, so the status is implied, not listed.
 */
function isKeyedBody(body: unknown): boolean {
  const shape = (body as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape !== undefined && REQUEST_KEY_FIELDS.some((field) => field in shape);
}

/**
 * Completes a route's OpenAPI operation from what the route table already knows
 * (docs/decisions/016, 023): its security from `config.access` and `config.caller`, its error
 * responses from the same and from its schemas, then the zod schemas turned into JSON Schema
 * 2020-12. Only `/api` routes are described: pages, static files, the identity provider's
 * protocol (/oidc) and the sandboxes' own endpoints are not our API.
 */
function documentRoute(input: {
  schema: FastifySchema;
  url: string;
  route: RouteOptions;
  openapiObject: Partial<{ openapi: string }>;
}) {
  const { url, route } = input;
  if (!url.startsWith('/api/')) return { schema: { hide: true }, url };
  const schema: FastifySchema = { ...(input.schema ?? {}) };
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const unsafe = methods.some((method) => isUnsafeMethod(method));
  const access: TRouteAccess = route.config?.access ?? 'public';
  const caller: TRouteCaller = route.config?.caller ?? 'web-app';
  const signedIn = access !== 'public';
  const csrf = unsafe && caller === 'web-app';

  const statuses = new Set<number>([429, ...(schema.errors ?? [])]);
  if (schema.body || schema.querystring || schema.params || unsafe) statuses.add(400);
  if (signedIn) statuses.add(401).add(403);
  if (csrf) statuses.add(403).add(415);
  // A write may meet a unique value a concurrent request took (409, naming the field), or its
  // transaction may lose a race more often than it is retried (503; docs/decisions/028).
  if (unsafe) statuses.add(409).add(413).add(503);
  if (isKeyedBody(schema.body)) statuses.add(409);
  // The router refuses a path segment over its limit before the route's schema sees it.
  if (schema.params) statuses.add(414);
  const errors: Record<number, object> = {};
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const body = status === 403 && signedIn ? ZForbiddenSchema : ZApiErrorSchema;
    errors[status] = {
      description: ERROR_RESPONSES[status] ?? 'Failed',
      content: { 'application/json': { schema: body } },
    };
  }
  delete schema.errors;

  const requirement: Record<string, string[]> = {};
  // The operator console's routes open with the staff cookie, never the dealer's (R12).
  if (signedIn) requirement[isStaffAccess(access) ? 'staffCookie' : 'sessionCookie'] = [];
  if (csrf) Object.assign(requirement, { csrfCookie: [], csrfHeader: [] });
  return zodTransform({
    ...input,
    schema: {
      ...schema,
      security: Object.keys(requirement).length > 0 ? [requirement] : [],
      response: { ...errors, ...(schema.response as object | undefined) },
    },
  } as Parameters<typeof zodTransform>[0]);
}

const TAGS = [
  { name: 'Session', description: 'The signed-in session and signing out (docs/decisions/009)' },
  { name: 'Account', description: 'The account record and profile (000 §3, §5)' },
  { name: 'Billing', description: 'The card on file, cancellation, reactivation (000 §7)' },
  { name: 'Payment history', description: 'Payments and receipts (000 §4, R9)' },
  { name: 'Sign-up', description: 'The sign-up wizard (001 §3, docs/decisions/013)' },
  { name: 'Identity', description: 'DealerPass ID password links (docs/decisions/009)' },
  { name: 'Carfax', description: 'The Carfax connection (docs/decisions/015)' },
  { name: 'Platform', description: 'Health, configuration, captcha, client logs, contact' },
  {
    name: 'Subscriptions',
    description: 'Changing the subscriptions of an account (docs/decisions/024, 035)',
  },
  {
    name: 'Annual billing',
    description:
      'Annual payment by check with the 10% discount, invoiced (DECISIONS R14, docs/decisions/041)',
  },
  {
    name: 'Admin',
    description:
      'The operator console: staff sign-in, sessions and roles, accounts, actions, promotions, prices, the inbox (DECISIONS R12, docs/decisions/026)',
  },
  { name: 'Documentation', description: 'This description and its reference UI' },
  {
    name: 'Sandbox: development mailbox',
    description:
      'The embedded mailbox (DECISIONS R8): only while mail is kept instead of sent, never in production',
  },
];

/**
 * The OpenAPI 3.1 description of the API, generated from the routes' own zod schemas
 * (`@fastify/swagger` with the zod type provider's transform), and a reference UI (Swagger UI,
 * served from our origin under a CSP of its own). Registered only when `config.apiDocs`: never on
 * a production server. Must be registered before the routes it describes.
 */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'DealerPass API',
          version: '1',
          description:
            'The API of the DealerPass web app. A success body is `{ "data": … }`; an error body is `ApiError` (docs/decisions/005). Unsafe calls need the CSRF cookie and its token in `x-csrf-token` (from the page’s `csrf-token` meta tag) and a JSON body.',
        },
        // Every instance answers for the one public origin (PUBLIC_URL).
        servers: [{ url: app.config.publicUrl, description: 'This DealerPass server' }],
        tags: TAGS,
        components: {
          securitySchemes: {
            sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
            staffCookie: { type: 'apiKey', in: 'cookie', name: STAFF_SESSION_COOKIE },
            csrfCookie: { type: 'apiKey', in: 'cookie', name: CSRF_COOKIE },
            csrfHeader: { type: 'apiKey', in: 'header', name: CSRF_HEADER },
          },
        },
      },
      transform: documentRoute as never,
      transformObject: (input) => withoutUnusedSchemas(jsonSchemaTransformObject(input)),
    });
    await app.register(docsRoutes);
  },
  { name: 'api-docs', dependencies: ['config', 'route-access'] },
);

/**
 * The document without the component schemas no operation refers to. The zod transform registers
 * an input and an output copy of each schema with an id; the error bodies are only ever answers,
 * so their input copies (`ApiErrorInput`, `SessionFailureInput`) would stand there unused.
 */
function withoutUnusedSchemas<T>(document: T): T {
  const doc = document as {
    paths?: unknown;
    components?: { schemas?: Record<string, unknown> };
  };
  const schemas = doc.components?.schemas;
  if (!schemas) return document;
  const used = new Set<string>();
  const visit = (value: unknown) => {
    const text = JSON.stringify(value);
    for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (used.has(name!)) continue;
      used.add(name!);
      visit(schemas[name!]);
    }
  };
  visit(doc.paths);
  doc.components!.schemas = Object.fromEntries(
    Object.entries(schemas).filter(([name]) => used.has(name)),
  );
  return document;
}

/** The UI's page: Swagger UI's own files from our origin, no inline script or style. */
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>DealerPass API</title>
    <link rel="stylesheet" href="${API_DOCS_PATH}/assets/swagger-ui.css">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${API_DOCS_PATH}/assets/swagger-ui-bundle.js"></script>
    <script src="${API_DOCS_PATH}/assets/init.js"></script>
  </body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_JSON_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  withCredentials: true,
});
`;

/**
 * The docs page's CSP: the strict page policy's shape with Swagger UI's needs (its own script
 * and stylesheet from us, SVG icons as data: URIs, calls to our API from "Try it out").
 */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};

const docsRoutes: FastifyPluginAsyncZod = async (app) => {
  // Swagger UI's built files as @fastify/swagger-ui ships them (its own routes cannot declare
  // their access, docs/decisions/016, so ours serve the files: swagger-ui-dist would bring a
  // telemetry install script with it).
  const dist = join(
    dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json')),
    'static',
  );
  const files = new Map<string, { type: string; body: string }>();
  for (const [name, type] of Object.entries(ASSETS)) {
    files.set(name, { type, body: await readFile(join(dist, name), 'utf8') });
  }
  files.set('init.js', { type: 'application/javascript; charset=utf-8', body: INIT });
  const docsConfig = { access: 'public', rateLimit: false } as const;
  const tags = ['Documentation'];

  app.get(
    OPENAPI_JSON_PATH,
    {
      config: docsConfig,
      schema: {
        operationId: 'getOpenApiDocument',
        summary: 'This OpenAPI 3.1 description',
        tags,
        response: { 200: z.looseObject({ openapi: z.string() }) },
      },
    },
    async () => app.swagger() as unknown as { openapi: string },
  );
  app.get(
    API_DOCS_PATH,
    {
      config: docsConfig,
      schema: {
        operationId: 'getReferenceUi',
        summary: 'The reference UI (Swagger UI)',
        tags,
        response: { 200: { content: { 'text/html': { schema: z.string() } } } },
      },
    },
    async (_request, reply) =>
      reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP).send(PAGE),
  );
  app.get(
    `${API_DOCS_PATH}/assets/:file`,
    {
      config: docsConfig,
      schema: {
        operationId: 'getReferenceUiFile',
        summary: 'A file of the reference UI',
        tags,
        params: z.object({ file: z.enum([...files.keys()] as [string, ...string[]]) }),
        response: {
          200: {
            content: {
              'application/javascript': { schema: z.string() },
              'text/css': { schema: z.string() },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const file = files.get(request.params.file)!;
      return reply.type(file.type).header('cache-control', 'public, max-age=3600').send(file.body);
    },
  );
};
