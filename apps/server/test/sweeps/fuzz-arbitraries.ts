import fc from 'fast-check';
import { z } from 'zod';

/**
 * fast-check arbitraries for the fuzz sweep (issue 13): valid values generated from a route's zod
 * schema (through its JSON Schema), and the mutations an attacker sends instead.
 */

/** The subset of JSON Schema that `z.toJSONSchema` produces for our request schemas. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
}

export function jsonSchemaOf(schema: unknown): JsonSchema | null {
  if (!(schema instanceof z.ZodType)) return null;
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** A piece of JSON text placed verbatim into a body (1e309, nesting deeper than JSON.stringify goes). */
export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** Serializes like JSON.stringify, with RawJson written as is; own `__proto__` keys are kept. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value).map(
      (key) => `${JSON.stringify(key)}:${toJsonText((value as Record<string, unknown>)[key])}`,
    );
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Sets a key as an own, enumerable property (plain assignment of `__proto__` would not). */
function withKey(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return target;
}

/**
 * Realistic values for fields whose rule JSON Schema cannot say (a zod refinement: the phone's
 * format, the password rule, a date), by field name, so that generated requests get past
 * validation to the handler and its queries. A new route with fields named alike gets them too.
 */
const FIELD_HINTS: [RegExp, fc.Arbitrary<string>][] = [
  [/phone$/i, fc.constantFrom('313-555-0142', '313-555-0100')],
  [/password$/i, fc.constant('Str0ng!Passw0rd')],
  [/^termAndCondition$/, fc.constant(new Date().toISOString())],
  [
    /Date$/,
    fc
      .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z') })
      .map((date) =>
        Number.isNaN(date.getTime()) ? '2030-01-01' : date.toISOString().slice(0, 10),
      ),
  ],
  [/zip$/i, fc.constantFrom('48201', '90210')],
  [/state$/i, fc.constantFrom('MI', 'CA')],
  [/^subscriptions$/, fc.constantFrom('NADA', 'MMR', 'CF', 'AC')],
  [/^cardLast4$/, fc.constant('1111')],
  [/expiration$/i, fc.constant('1230')],
  [/^creditCardNumber$/, fc.constant('4111111111111111')],
  [/^creditCardCode$/, fc.constant('123')],
  [/(first|last)Name$/i, fc.stringMatching(/^[A-Z][a-z]{1,12}$/)],
  [
    /^(dealership|dealershipName|address1|city)$/,
    fc.stringMatching(/^[A-Z][a-z]{2,10} [A-Z][a-z]{2,10}$/),
  ],
  [/email$/i, fc.emailAddress()],
  [/^response_type$/, fc.constant('code')],
  [/^scope$/, fc.constant('openid')],
  [/^code_challenge_method$/, fc.constant('S256')],
  [/^grant_type$/, fc.constantFrom('authorization_code', 'refresh_token', 'client_credentials')],
];

/** Valid values of a schema (what the web app would send); `name` is the field's. */
export function validValue(schema: JsonSchema | undefined, name = ''): fc.Arbitrary<unknown> {
  if (!schema) return fc.jsonValue({ maxDepth: 2 });
  const hint = FIELD_HINTS.find(([pattern]) => pattern.test(name))?.[1];
  if (hint && schema.type === 'string' && hintFits(hint, schema.pattern)) return hint;
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => validValue(s, name)));
  // Beside a type, `allOf` adds rules to it (more patterns, rules between fields): the value
  // comes from the type, and a caller that needs the rules met filters for them.
  if (schema.allOf?.[0] && schema.type === undefined) return validValue(schema.allOf[0], name);
  if (Array.isArray(schema.type)) {
    return fc.oneof(...schema.type.map((type) => validValue({ ...schema, type }, name)));
  }
  switch (schema.type) {
    case 'string':
      return validString(schema);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6 });
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validValue(schema.items, name), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const required = schema.required ?? [];
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, validValue(s, key)])),
        { requiredKeys: required.filter((key) => key in properties) },
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A field's hint serves where the field has no pattern, or where every value it gives matches. */
function hintFits(hint: fc.Arbitrary<string>, pattern: string | undefined): boolean {
  if (!pattern) return true;
  const matches = new RegExp(pattern, 'u');
  return fc.sample(hint, { numRuns: 20, seed: 1 }).every((value) => matches.test(value));
}

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Infinity;
  const fits = (value: string) => value.length >= minLength && value.length <= maxLength;
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  if (schema.format === 'email') return fc.emailAddress().filter(fits);
  return fc.string({ minLength, maxLength: Math.min(maxLength, Math.max(minLength, 40)) });
}

/** Characters PostgreSQL text cannot store, or that break parsers and logs. */
const CONTROL_CHARACTERS = [
  '\u0000',
  '\u0001',
  '\u0008',
  '\t',
  '\n',
  '\r',
  '\u000b',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u202e',
  '\ufeff',
  '\uffff',
];
const LONE_SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff'];

/** One bad character, NUL (the one that reached the database) as often as all others together. */
const badCharacter = fc.oneof(
  fc.constant('\u0000'),
  fc.constantFrom(...CONTROL_CHARACTERS, ...LONE_SURROGATES),
);

/** Strings an attacker types: control characters, lone surrogates, very long ones, markup. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.string({ maxLength: 8 }), badCharacter).map(([text, bad]) => `${text}${bad}${text}`),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({
    unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
    minLength: 1,
    maxLength: 4,
  }),
  fc.integer({ min: 1_000, max: 70_000 }).map((length) => 'a'.repeat(length)),
  fc.constantFrom(
    '',
    ' ',
    '../../../../etc/passwd',
    "' or 1=1 --",
    '<script>alert(1)</script>',
    '%00',
    '${jndi:ldap://x}',
    '__proto__',
  ),
);

/** Values of the wrong kind for any field. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.constant(new RawJson('1e309')),
  fc.constant(new RawJson('-1e309')),
  fc
    .integer({ min: 500, max: 5_000 })
    .map((depth) => new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`)),
  fc
    .integer({ min: 500, max: 3_000 })
    .map((depth) => new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)),
  fc.constant(withKey({}, '__proto__', { admin: true })),
);

const EXTRA_KEYS = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'),
  fc.string({ maxLength: 10 }),
);

type Path = (string | number)[];

/** Every place in a value that a mutation can change (the root is the empty path). */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const paths: Path[] = [prefix];
  if (Array.isArray(value))
    value.forEach((item, i) => paths.push(...pathsOf(item, [...prefix, i])));
  else if (value !== null && typeof value === 'object' && !(value instanceof RawJson)) {
    for (const key of Object.keys(value)) {
      paths.push(...pathsOf((value as Record<string, unknown>)[key], [...prefix, key]));
    }
  }
  return paths;
}

function clone<T>(value: T): T {
  if (value instanceof RawJson) return value;
  if (Array.isArray(value)) return value.map(clone) as T;
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value))
      withKey(copy, key, clone((value as Record<string, unknown>)[key]));
    return copy as T;
  }
  return value;
}

type Mutation =
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'inject'; at: number; text: string; position: number }
  | { kind: 'delete'; at: number }
  | { kind: 'extra'; at: number; key: string; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: wrongValue }),
  // The class that reaches the database: an otherwise valid value with one bad character in it.
  fc.record({
    kind: fc.constant('inject' as const),
    at: fc.nat(),
    text: nastyString,
    position: fc.nat(),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('extra' as const),
    at: fc.nat(),
    key: EXTRA_KEYS,
    value: wrongValue,
  }),
);

function applyMutation(value: unknown, change: Mutation): unknown {
  const root = { value: clone(value) };
  const paths = pathsOf(root.value);
  const path = ['value' as string | number, ...(paths[change.at % paths.length] ?? [])];
  const key = path.at(-1)!;
  let parent: Record<string | number, unknown> = root;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const current = parent[key];
  switch (change.kind) {
    case 'replace':
      parent[key] = change.value;
      break;
    case 'inject':
      if (typeof current === 'string') {
        const at = change.position % (current.length + 1);
        parent[key] = `${current.slice(0, at)}${change.text}${current.slice(at)}`;
      } else parent[key] = change.text;
      break;
    case 'delete':
      if (path.length === 1) return undefined;
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
      break;
    case 'extra':
      if (current !== null && typeof current === 'object' && !Array.isArray(current)) {
        withKey(current as Record<string, unknown>, change.key, change.value);
      } else if (path.length > 1 && !Array.isArray(parent)) {
        withKey(parent, change.key, change.value);
      }
      break;
  }
  return root.value;
}

/** A valid value, or one with one to three mutations; now and then not even the right shape. */
export function fuzzedValue(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const valid = validValue(schema);
  return fc.oneof(
    { weight: 1, arbitrary: valid },
    // The class that reached the database: a valid request with one bad character in one field.
    {
      weight: 3,
      arbitrary: fc
        .tuple(valid, fc.nat(), badCharacter, fc.nat())
        .map(([value, at, text, position]) =>
          applyMutation(value, { kind: 'inject', at, text, position }),
        ),
    },
    {
      weight: 6,
      arbitrary: fc
        .tuple(valid, fc.array(mutation, { minLength: 1, maxLength: 3 }))
        .map(([value, changes]) => changes.reduce(applyMutation, value)),
    },
    { weight: 1, arbitrary: wrongValue },
  );
}

/**
 * Percent-encodes a string as a browser would, lone surrogates included (as the invalid UTF-8
 * bytes WTF-8 gives them: encodeURIComponent would throw, an attacker's client does not).
 */
export function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(text[i]!);
  }
  return out;
}

/** Already-encoded URL pieces that no encoder produces: bad escapes, NUL, traversal. */
export const RAW_URL_PIECES = [
  '%00',
  '%',
  '%ZZ',
  '%E0%A4%A',
  '%C0%AE%C0%AE%2F',
  '%ED%A0%80',
  '..',
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2f',
  '..%5c..%5cwindows',
  '%252e%252e%252f',
  '%0d%0aSet-Cookie:%20x=y',
];

/** A value as the text of a query, form or path parameter. */
export function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof RawJson) return value.text;
  return toJsonText(value);
}

/** A query string from a schema's (mutated) values, sometimes with raw pieces appended. */
export function fuzzedQuery(schema: JsonSchema | undefined): fc.Arbitrary<string> {
  const values = schema
    ? fuzzedValue(schema)
    : fc.dictionary(fc.string({ maxLength: 10 }), fc.oneof(fc.string(), nastyString), {
        maxKeys: 3,
      });
  return fc
    .tuple(
      values,
      fc.option(
        fc.oneof(
          fc.constantFrom(...RAW_URL_PIECES).map((piece) => `x=${piece}`),
          fc.constantFrom('__proto__[a]=1', 'constructor[prototype][a]=1', 'a=1&a=2', 'a[]=1'),
          fc
            .tuple(
              fc.constantFrom(...Object.keys(schema?.properties ?? { x: 0 })),
              fc.constantFrom(...RAW_URL_PIECES),
            )
            .map(([key, piece]) => `${percentEncode(key)}=${piece}`),
        ),
        { nil: undefined },
      ),
    )
    .map(([object, raw]) => {
      const pairs: string[] = [];
      if (
        object !== null &&
        typeof object === 'object' &&
        !Array.isArray(object) &&
        !(object instanceof RawJson)
      ) {
        for (const [key, value] of Object.entries(object)) {
          for (const item of Array.isArray(value) ? value : [value]) {
            if (item === undefined) continue;
            pairs.push(`${percentEncode(key)}=${percentEncode(stringify(item))}`);
          }
        }
      } else if (object !== undefined) pairs.push(percentEncode(stringify(object)));
      if (raw) pairs.push(raw);
      return pairs.join('&');
    });
}

/** One path segment: a (mutated) schema value, encoded, or a raw traversal or bad escape. */
export function fuzzedSegment(schema: JsonSchema | undefined): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fuzzedValue(schema).map((value) => percentEncode(stringify(value))) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_URL_PIECES) },
  );
}
