import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * The zod types a compiled serializer writes exactly as zod would: plain data, nothing computed.
 * A transform, a refinement, a default or any check (length, format, …) is zod's to run, and so
 * is a union or nullable of anything but scalars: a schema holding one is serialized through zod.
 */
const PLAIN_TYPES = new Set([
  'object',
  'string',
  'number',
  'boolean',
  'null',
  'array',
  'nullable',
  'optional',
  'record',
  'enum',
  'literal',
  'union',
  'unknown',
  'any',
]);

/**
 * What a union's or a nullable's branch may be. fast-json-stringify picks a branch by validating
 * the value against each (objects with `additionalProperties: false`), where zod strips unknown
 * keys: an object branch would fail a value zod accepts.
 */
const SCALAR_TYPES = new Set(['string', 'number', 'boolean', 'null', 'enum', 'literal']);

interface ZodInternals {
  _zod: {
    def: { type: string; checks?: unknown[]; options?: ZodInternals[]; innerType?: ZodInternals };
  };
}

function plainType(def: ZodInternals['_zod']['def']): boolean {
  if (!PLAIN_TYPES.has(def.type) || (def.checks?.length ?? 0) > 0) return false;
  const scalar = (branch: ZodInternals) => SCALAR_TYPES.has(branch._zod.def.type);
  if (def.type === 'union') return (def.options ?? []).every(scalar);
  if (def.type === 'nullable') return def.innerType !== undefined && scalar(def.innerType);
  return true;
}

/** Whether every type in the schema is plain (the walk sees each nested type through toJSONSchema). */
function plainJsonSchema(schema: z.ZodType): Record<string, unknown> | null {
  let plain = true;
  try {
    const json = z.toJSONSchema(schema, {
      io: 'output',
      target: 'draft-7',
      unrepresentable: 'throw',
      cycles: 'throw',
      reused: 'inline',
      // Ids and descriptions given for the API document (another registry's) play no part here:
      // every type is written out in place.
      metadata: z.registry(),
      override: ({ zodSchema }) => {
        if (!plainType((zodSchema as unknown as ZodInternals)._zod.def)) plain = false;
      },
    }) as Record<string, unknown>;
    delete json.$schema;
    return plain ? json : null;
  } catch {
    return null; // a transform, a date, a cycle…: zod serializes it
  }
}

/**
 * Response serialization (docs/decisions/021): a route's zod response schema is compiled once
 * into a fast-json-stringify serializer through its JSON Schema, so a response is written by
 * generated code instead of being parsed by zod and then stringified. It writes only the
 * schema's properties (`additionalProperties: false` as zod's objects strip unknown keys), so a
 * field outside the schema still cannot leave the server, and a missing required field still
 * fails the response (500). Unlike zod it writes a value of another type as the declared type
 * where it can (a number as a string) rather than fail. Schemas it cannot write as zod would,
 * and anything that is not a zod schema, go to the zod type provider's serializer.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  const { schema } = route;
  if (schema instanceof z.ZodType) {
    const json = plainJsonSchema(schema);
    if (json) return fastJson(json);
  }
  return zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
};
