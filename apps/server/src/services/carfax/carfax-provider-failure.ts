import { carfaxErrorMessage } from '@dealerpass/domain/messages/carfax-errors';
import {
  ERROR_CODES,
  errorMessage,
  type IMessageVars,
  type TErrorCode,
} from '@dealerpass/domain/messages';
import { CarfaxProviderError } from '../../adapters/carfax/carfax-oauth-client.ts';
import { AppError } from '../../errors/app-error.ts';

/**
 * A failed Carfax call as our error body (001 §8): the code's text in `errors` under `carfax`,
 * and the top-level message the page's error panel shows. Anything else is rethrown as is.
 */
export function carfaxFailure(
  error: unknown,
  code: Extract<TErrorCode, 'CARFAX_TOKENS_FAILED' | 'CARFAX_PROVIDER_ERROR'>,
  messageVars: IMessageVars,
): never {
  if (!(error instanceof CarfaxProviderError)) throw error;
  const text = carfaxErrorMessage(error.carfaxCode, messageVars);
  throw new AppError(ERROR_CODES[code], {
    message: code === 'CARFAX_TOKENS_FAILED' ? errorMessage(code) : text,
    errors: [{ source: 'carfax', message: text }],
    cause: error,
  });
}
