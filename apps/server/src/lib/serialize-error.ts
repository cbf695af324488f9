import { stdSerializers } from 'pino';

/** What a database error may say in a log: the engine's code and where, never a value. */
const SAFE_DATABASE_FIELDS = [
  'code',
  'severity',
  'schema',
  'table',
  'column',
  'constraint',
  'routine',
] as const;

/**
 * A failed query (drizzle's DrizzleQueryError carries `query` and `params`), or the engine's own
 * error (node-postgres' and PGlite's DatabaseError: a five-character SQLSTATE and a severity).
 */
function isDatabaseError(error: object): boolean {
  const e = error as Record<string, unknown>;
  return (
    ('query' in e && 'params' in e) ||
    (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && 'severity' in e)
  );
}

/** The stack's frames only: its first lines repeat the message, which may hold the values. */
function framesOf(error: Error): string {
  const stack = error.stack ?? '';
  const at = stack.indexOf('\n    at ');
  return at < 0 ? '' : stack.slice(at);
}

/**
 * A database error reduced to what is safe to log (issue 13 #4): the SQLSTATE, the table,
 * column and constraint names and the stack frames. The message, the detail ("Key (email)=(…)
 * already exists"), the query text and its parameters can hold names and e-mail addresses.
 */
function safeDatabaseError(error: Error): Error {
  let engine: Record<string, unknown> = error as unknown as Record<string, unknown>;
  // drizzle's wrapper holds the engine's error as its cause.
  if ('params' in engine && engine.cause !== null && typeof engine.cause === 'object') {
    engine = engine.cause as Record<string, unknown>;
  }
  const code = typeof engine.code === 'string' ? engine.code : 'unknown';
  const safe = new Error(`database error ${code}`);
  safe.name = 'DatabaseError';
  safe.stack = `DatabaseError: database error ${code}${framesOf(error)}`;
  for (const field of SAFE_DATABASE_FIELDS) {
    if (typeof engine[field] === 'string') Object.assign(safe, { [field]: engine[field] });
  }
  return safe;
}

/** The error chain with every database error in it replaced by its safe form. */
function sanitize(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 10) return error;
  if (isDatabaseError(error)) return safeDatabaseError(error);
  const cause = (error as { cause?: unknown }).cause;
  if (!(cause instanceof Error)) return error;
  const safeCause = sanitize(cause, depth + 1);
  if (safeCause === cause) return error;
  // A copy with the safe cause: the original error still belongs to whoever threw it.
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  for (const key of Object.getOwnPropertyNames(error)) {
    Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(error, key)!);
  }
  Object.defineProperty(copy, 'cause', { value: safeCause, enumerable: false, writable: true });
  return copy;
}

/** The logger's `err` serializer: pino's own, after database errors are made safe. */
export function serializeError(error: Error): ReturnType<typeof stdSerializers.err> {
  return stdSerializers.err(sanitize(error) as Error);
}
