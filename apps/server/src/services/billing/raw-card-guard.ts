import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import { findRawCardData } from '@dealerpass/domain/validation/raw-card-data';
import { AppError } from '../../errors/app-error.ts';

/**
 * DECISIONS R5: a billing write whose JSON body carries a raw card number or CVV is refused with
 * 400 RAW_CARD_DATA_REFUSED before anything is validated or stored. The value is never echoed.
 */
export function refuseRawCardData(body: unknown): void {
  const path = findRawCardData(body);
  if (path === null) return;
  throw new AppError(ERROR_CODES.RAW_CARD_DATA_REFUSED, {
    errors: [{ source: path, message: errorMessage(ERROR_CODES.RAW_CARD_DATA_REFUSED) }],
  });
}
