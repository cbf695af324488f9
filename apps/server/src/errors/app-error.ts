import { errorMessage, httpStatusOf, type TErrorCode } from '@dealerpass/domain/messages';

/** One field's problem, named the way the form names the field (`source`), with the text the user sees. */
export interface FieldError {
  source: string;
  message: string;
  /** The sign-up's user-facing text of a 400 (001 §8, docs/decisions/008 #13). */
  details?: string;
}

/**
 * The one error type of the server (STYLE.md §6). The code picks the HTTP status and the
 * user-facing text from the domain's catalogue; nothing else about the failure reaches the client.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: TErrorCode;
  readonly statusCode: number;
  readonly errors: FieldError[];

  constructor(
    code: TErrorCode,
    options: { message?: string; errors?: FieldError[]; cause?: unknown; statusCode?: number } = {},
  ) {
    super(options.message ?? errorMessage(code), { cause: options.cause });
    this.code = code;
    this.statusCode = options.statusCode ?? httpStatusOf(code);
    this.errors = options.errors ?? [];
  }
}
