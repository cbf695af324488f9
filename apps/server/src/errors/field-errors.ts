import type { FieldError } from './app-error.ts';

/**
 * A failed schema check as Fastify hands it over (`instancePath`, a JSON pointer) or as zod
 * reports it for a body checked in a handler (`path`).
 */
export type ValidationIssue =
  { instancePath: string; message?: string } | { path: readonly PropertyKey[]; message: string };

/**
 * The one mapping of validation issues to the API's field errors: the field's dotted path
 * (`body` for the body as a whole) and its message, or `fallback` where the issue has none.
 */
export function toFieldErrors(issues: readonly ValidationIssue[], fallback: string): FieldError[] {
  return issues.map((issue) => ({
    source:
      ('path' in issue
        ? issue.path.join('.')
        : issue.instancePath.replace(/^\//, '').replaceAll('/', '.')) || 'body',
    message: issue.message ?? fallback,
  }));
}
