import { ERROR_CODES, errorMessage, type TErrorCode } from '@dealerpass/domain/messages';
import { STAFF_MEMBER_MESSAGES } from '@dealerpass/domain/admin/staff-members';
import { AppError } from './app-error.ts';

/** What PostgreSQL (node-postgres or PGlite) tells of a unique violation, wrapped or not. */
interface UniqueViolation {
  constraint: string | null;
  /** The key's columns, from "Key (a, b)=(…) already exists." (the values are never kept). */
  columns: string[];
}

/**
 * The unique keys a person can collide on, with the code and field the form shows (000 §8). Any
 * other unique key (a request key, a period, a balance entry's source) names its columns.
 */
const KNOWN: Record<string, { code: TErrorCode; source: string; fieldMessage?: string }> = {
  identities_email_unique: { code: ERROR_CODES.EMAIL_IN_USE, source: 'email' },
  staff_users_email_unique: {
    code: ERROR_CODES.EMAIL_IN_USE,
    source: 'email',
    fieldMessage: STAFF_MEMBER_MESSAGES.emailInUse,
  },
  promotion_codes_pkey: { code: ERROR_CODES.PROMO_CODE_EXISTS, source: 'code' },
  subscription_changes_in_flight_uq: { code: ERROR_CODES.CHANGE_IN_PROGRESS, source: 'codes' },
};

/** PostgreSQL's unique_violation (23505) found in an error or its causes, or null. */
export function findUniqueViolation(error: unknown): UniqueViolation | null {
  let cause = error;
  for (let depth = 0; depth < 5 && typeof cause === 'object' && cause !== null; depth += 1) {
    const record = cause as {
      code?: unknown;
      constraint?: unknown;
      detail?: unknown;
      cause?: unknown;
    };
    if (record.code === '23505') {
      const detail = typeof record.detail === 'string' ? record.detail : '';
      const key = /^Key \(([^)]*)\)=/.exec(detail)?.[1] ?? '';
      return {
        constraint: typeof record.constraint === 'string' ? record.constraint : null,
        columns: key
          .split(',')
          .map((column) => column.trim().replace(/^"|"$/g, ''))
          .filter((column) => column !== ''),
      };
    }
    cause = record.cause;
  }
  return null;
}

const camelCase = (column: string) =>
  column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/**
 * A unique-key race as the API answers it (issue 24): two requests both checked that a value was
 * free, and the database refused the second one's row. It is a 409 naming the field, never a 500:
 * the error handler sends every unique violation that reaches it through here, so an insert
 * needs no code of its own for its race.
 */
export function uniqueViolationError(error: unknown): AppError | null {
  const violation = findUniqueViolation(error);
  if (!violation) return null;
  const known = violation.constraint ? KNOWN[violation.constraint] : undefined;
  if (known) {
    // As the service's own check of the same value answers it.
    const message = errorMessage(known.code);
    return new AppError(known.code, {
      cause: error,
      errors: [{ source: known.source, message: known.fieldMessage ?? message }],
    });
  }
  const message = errorMessage(ERROR_CODES.ALREADY_EXISTS);
  const fields = violation.columns.length > 0 ? violation.columns.map(camelCase) : ['id'];
  return new AppError(ERROR_CODES.ALREADY_EXISTS, {
    cause: error,
    message,
    errors: fields.map((source) => ({ source, message })),
  });
}

/** Whether an error (or one of its causes) is PostgreSQL's unique_violation. */
export function isUniqueViolation(error: unknown): boolean {
  return findUniqueViolation(error) !== null;
}
