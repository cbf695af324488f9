import type { FastifyError, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_CODES, errorMessage, type TErrorCode } from '@dealerpass/domain/messages';
import { AppError, type FieldError } from '../errors/app-error.ts';
import { toFieldErrors } from '../errors/field-errors.ts';
import { uniqueViolationError } from '../errors/unique-violation.ts';
import { isRetryableTransactionFailure } from '../db/retry-transaction.ts';

/** The body of every failed API answer. */
export interface ErrorBody {
  statusCode: number;
  code: TErrorCode;
  message: string;
  errors: FieldError[];
}

/** Fastify's own failures that are the client's fault, mapped onto our codes. */
const FASTIFY_CODES: Record<string, TErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ERROR_CODES.PAYLOAD_TOO_LARGE,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ERROR_CODES.UNSUPPORTED_MEDIA_TYPE,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ERROR_CODES.VALIDATION_FAILED,
  FST_ERR_CTP_EMPTY_JSON_BODY: ERROR_CODES.VALIDATION_FAILED,
  FST_ERR_CTP_INVALID_JSON_BODY: ERROR_CODES.VALIDATION_FAILED,
};

/**
 * The one error handler (STYLE.md §6): validation → 400 with each field's message; our AppError →
 * its status and text; anything unexpected → 500 with a fixed text, the details only in the log.
 */
export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        const errors = toFieldErrors(error.validation, errorMessage(ERROR_CODES.VALIDATION_FAILED));
        return send(
          reply,
          400,
          ERROR_CODES.VALIDATION_FAILED,
          errorMessage(ERROR_CODES.VALIDATION_FAILED),
          errors,
        );
      }
      // A unique key another request took a moment before: 409 naming the field (issue 24).
      const refused = error instanceof AppError ? error : uniqueViolationError(error);
      if (refused) {
        if (refused.statusCode >= 500) request.log.error({ err: error }, 'request failed');
        return send(reply, refused.statusCode, refused.code, refused.message, refused.errors);
      }
      if (isRetryableTransactionFailure(error)) {
        // Still losing the race after the transaction's own retries (docs/decisions/028):
        // nothing was written, and the client may try again.
        request.log.warn({ err: error }, 'transaction retries exhausted');
        return send(
          reply,
          503,
          ERROR_CODES.SERVICE_UNAVAILABLE,
          errorMessage(ERROR_CODES.SERVICE_UNAVAILABLE),
          [],
        );
      }
      const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
      if (mapped) return send(reply, error.statusCode ?? 400, mapped, errorMessage(mapped), []);
      if (error.statusCode === 429) {
        return send(
          reply,
          429,
          ERROR_CODES.RATE_LIMITED,
          errorMessage(ERROR_CODES.RATE_LIMITED),
          [],
        );
      }
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return send(
          reply,
          error.statusCode,
          ERROR_CODES.VALIDATION_FAILED,
          errorMessage(ERROR_CODES.VALIDATION_FAILED),
          [],
        );
      }
      request.log.error({ err: error }, 'unexpected failure');
      return send(
        reply,
        500,
        ERROR_CODES.INTERNAL_SERVER_ERROR,
        errorMessage(ERROR_CODES.INTERNAL_SERVER_ERROR),
        [],
      );
    });
  },
  { name: 'error-handler' },
);

function send(
  reply: FastifyReply,
  statusCode: number,
  code: TErrorCode,
  message: string,
  errors: FieldError[],
) {
  const body: ErrorBody = { statusCode, code, message, errors };
  return reply.status(statusCode).type('application/json; charset=utf-8').send(body);
}
