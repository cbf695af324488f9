import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Checks every answer of a documented route against the OpenAPI description
 * (docs/decisions/023): the status must be one the operation lists, and a JSON body must match
 * that response's schema (Ajv, JSON Schema 2020-12, as OpenAPI 3.1 says). The helper enables it
 * on every test app, so the whole API suite checks the description against real answers.
 * Mismatches are collected, and the test app's `close()` fails with them.
 */

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, ResponseObject> }>>;
  components?: Record<string, unknown>;
}
interface ResponseObject {
  description: string;
  content?: Record<string, { schema?: object }>;
}

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
/** Compiled validators, shared by every test app of the file (the schemas are the same). */
const validators = new Map<string, ValidateFunction>();

/** `/api/users/:email` → `/api/users/{email}`, as @fastify/swagger writes paths. */
export function openApiPath(routeUrl: string): string {
  return routeUrl.replace(/:([A-Za-z_]\w*)/g, '{$1}');
}

export function createConformanceCheck() {
  const failures: string[] = [];
  let app: FastifyInstance | null = null;
  let skipped = new Set<string>();
  let doc: OpenApiDocument | null = null;

  function validatorFor(schema: object): ValidateFunction {
    const wrapped = { ...schema, components: doc?.components ?? {} };
    const key = JSON.stringify(wrapped);
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile(wrapped);
      validators.set(key, validate);
    }
    return validate;
  }

  function check(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    const routeUrl = request.routeOptions.url;
    if (!app || routeUrl === undefined || !routeUrl.startsWith('/api/')) return;
    if (skipped.has(routeUrl)) return;
    if (request.method === 'HEAD' || request.method === 'OPTIONS') return;
    // A production configuration serves no description: nothing to check against.
    if (typeof app.swagger !== 'function') return;
    doc ??= app.swagger() as unknown as OpenApiDocument;
    const label = `${request.method} ${routeUrl} → ${reply.statusCode}`;
    const operation = doc.paths[openApiPath(routeUrl)]?.[request.method.toLowerCase()];
    if (!operation) {
      failures.push(`${label}: the route is not in the description`);
      return;
    }
    const status = reply.statusCode;
    const response =
      operation.responses[String(status)] ??
      operation.responses[`${Math.floor(status / 100)}XX`] ??
      operation.responses.default;
    if (!response) {
      // An unexpected failure is no contract of the route; its body is still decision 005's.
      if (status < 500) failures.push(`${label}: the status is not documented`);
      return;
    }
    const contentType = String(reply.getHeader('content-type') ?? '')
      .split(';')[0]!
      .trim();
    if (!contentType) return;
    const media = response.content?.[contentType];
    if (!media) {
      failures.push(`${label}: ${contentType} is not documented for this status`);
      return;
    }
    if (contentType !== 'application/json' || typeof payload !== 'string' || !media.schema) return;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      failures.push(`${label}: the body is not JSON`);
      return;
    }
    const validate = validatorFor(media.schema);
    if (!validate(body)) {
      const errors = (validate.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`)
        .join('; ');
      failures.push(`${label}: the body does not match its schema: ${errors}`);
    }
  }

  return {
    failures,
    /**
     * Call once the app is built: the description is read from it on the first answer. Routes
     * a test added for itself (`skip`) are not checked.
     */
    attach(instance: FastifyInstance, skip: ReadonlySet<string> = new Set()) {
      app = instance;
      skipped = new Set(skip);
    },
    check,
  };
}
