import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { ZCarfaxTokensParamsSchema } from '@dealerpass/domain/integrations/carfax';
import {
  ERROR_CODES,
  errorMessage,
  httpStatusOf,
  type TErrorCode,
} from '@dealerpass/domain/messages';
import { ZEmailParamSchema } from '@dealerpass/domain/schemas/user-params';

/**
 * The longest value a path parameter's schema documents (`maxLength`), per parameter. A
 * parameter whose schema states no length (a UUID, an enum, a bounded pattern) is left out.
 */
export function pathParameterLengths(params: unknown): Record<string, number> {
  if (!(params instanceof z.ZodType)) return {};
  const json = z.toJSONSchema(params, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, { maxLength?: number }>;
  };
  const lengths: Record<string, number> = {};
  for (const [name, schema] of Object.entries(json.properties ?? {})) {
    if (schema.maxLength !== undefined) lengths[name] = schema.maxLength;
  }
  return lengths;
}

/**
 * The longest path parameter the API documents: an e-mail address (254) and Carfax's `code` and
 * `redirectUri` (2048), read from the very schemas their routes validate with. Every route's
 * parameters are checked against it when the route is added (below), so a longer one added later
 * stops the server instead of being cut off by the router.
 */
export const LONGEST_PATH_PARAMETER = Math.max(
  ...[ZEmailParamSchema, ZCarfaxTokensParamsSchema].flatMap((schema) =>
    Object.values(pathParameterLengths(schema)),
  ),
);

/**
 * The router's limit on a path segment, counted before percent-decoding: every character of the
 * longest documented value may arrive percent-encoded (`/` → `%2F`, three characters), so such
 * a value always reaches its schema, which answers a value over its own `maxLength` with a 400
 * naming the field (docs/decisions/045).
 */
export const MAX_PARAM_LENGTH = 3 * LONGEST_PATH_PARAMETER;

/** The router's own refusals, before any route matched, in the API's error body (decision 005). */
const ROUTER_ERRORS: Record<string, TErrorCode> = {
  FST_ERR_MAX_PARAM_LENGTH: ERROR_CODES.URI_TOO_LONG,
  FST_ERR_BAD_URL: ERROR_CODES.VALIDATION_FAILED,
};

/** Fastify's `frameworkErrors`: what the router refuses answers like every other failure. */
export const answerRouterError: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  error: Error & { code?: string },
  request: FastifyRequest,
  reply: FastifyReply,
) => {
  const code = ROUTER_ERRORS[error.code ?? ''] ?? ERROR_CODES.VALIDATION_FAILED;
  const statusCode = httpStatusOf(code);
  request.log.info({ code: error.code }, 'refused by the router');
  void reply
    .status(statusCode)
    .type('application/json; charset=utf-8')
    .send({ statusCode, code, message: errorMessage(code), errors: [] });
};

/** Stops the server at start-up when a route's path parameter is longer than the router allows. */
export default fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      for (const [name, length] of Object.entries(pathParameterLengths(route.schema?.params))) {
        if (length > LONGEST_PATH_PARAMETER) {
          throw new Error(
            `route ${route.url}: the path parameter ${name} may be ${length} characters, more than the router's limit allows (LONGEST_PATH_PARAMETER ${LONGEST_PATH_PARAMETER})`,
          );
        }
      }
    });
  },
  { name: 'path-parameters' },
);
