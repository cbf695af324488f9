import fp from 'fastify-plugin';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import { AppError } from '../errors/app-error.ts';

/**
 * Finds the first string in a value that PostgreSQL cannot store as text or JSON: a NUL
 * character, or a lone UTF-16 surrogate (not Unicode; jsonb refuses its escape). Returns where it
 * is (`a.b.0`, `''` for the value itself), or null. Iterative: a body may nest deeper than the
 * call stack goes.
 */
export function findUnstorableText(value: unknown): string | null {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const current = item.value;
    if (typeof current === 'string') {
      if (current.includes('\u0000') || !current.isWellFormed()) return item.path;
    } else if (current !== null && typeof current === 'object') {
      for (const key of Object.keys(current)) {
        const path = item.path ? `${item.path}.${key}` : key;
        if (key.includes('\u0000') || !key.isWellFormed()) return path;
        pending.push({ value: (current as Record<string, unknown>)[key], path });
      }
    }
  }
  return null;
}

/**
 * Text PostgreSQL cannot store is refused at the edge, for every route and whatever the parser
 * (issue 13 #4): the path parameters, the query string and the parsed body, before validation
 * and the handler, so no field on any route can carry it to a query and come back as a 500.
 * In `preValidation`: after authentication (onRequest), as every other refusal of input.
 */
export default fp(
  async (app) => {
    app.addHook('preValidation', async (request) => {
      for (const [source, value] of [
        ['params', request.params],
        ['query', request.query],
        ['body', request.body],
      ] as const) {
        const at = findUnstorableText(value);
        if (at !== null) {
          throw new AppError(ERROR_CODES.VALIDATION_FAILED, {
            errors: [
              {
                source: source === 'body' ? at || 'body' : `${source}${at ? `.${at}` : ''}`,
                message: errorMessage(ERROR_CODES.VALIDATION_FAILED),
              },
            ],
          });
        }
      }
    });
  },
  { name: 'text-input' },
);
