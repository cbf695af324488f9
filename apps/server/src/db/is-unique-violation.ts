/** PostgreSQL's unique_violation, as node-postgres or PGlite report it, wrapped or not. */
export function isUniqueViolation(error: unknown): boolean {
  let cause = error;
  for (let depth = 0; depth < 5 && isRecord(cause); depth += 1) {
    if (cause.code === '23505') return true;
    cause = cause.cause;
  }
  return false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
