/**
 * What a failed API call says to the user, for forms that show it themselves (an error summary,
 * field errors) rather than as a toast. Shared so every form words a failure the same way.
 */
import { TOAST } from '@dealerpass/domain/messages/toast';
import { errorCodeForStatus, errorMessage } from '@dealerpass/domain/messages';
import { ApiError } from './api-client.ts';

/** The text to show for a failed call: the server's own message, else the catalogue's for the status. */
export function failureMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return TOAST.alert;
  const body = error.body as { message?: unknown } | null;
  if (body && typeof body === 'object' && typeof body.message === 'string' && body.message) {
    return body.message;
  }
  if (error.status === 0) return error.message;
  return errorMessage(errorCodeForStatus(error.status));
}

/** The server's field errors for the given fields, in the order it sent them. */
export function fieldErrorsOf<T extends string>(
  error: unknown,
  fields: readonly T[],
): { field: T; message: string }[] {
  if (!(error instanceof ApiError)) return [];
  return error.errors
    .filter((e): e is typeof e & { source: T } => (fields as readonly string[]).includes(e.source))
    .filter((e) => Boolean(e.message))
    .map((e) => ({ field: e.source, message: e.message }));
}
