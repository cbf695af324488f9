import { ERROR_CODES } from '@dealerpass/domain/messages';
import { paymentHistoryYears } from '@dealerpass/domain/billing/payment-history';
import { YEAR_MESSAGE } from '@dealerpass/domain/schemas/payment-history';
import { AppError } from '../../errors/app-error.ts';

/**
 * The query schema checks the year's form; this checks it is one the selector offers (000 §9:
 * the last 5 business years, none before 2020), with the same field message.
 */
export function checkHistoryYear(year: number, now: Date, timeZone: string): void {
  if (!paymentHistoryYears(now, timeZone).includes(year)) {
    throw new AppError(ERROR_CODES.VALIDATION_FAILED, {
      errors: [{ source: 'year', message: YEAR_MESSAGE }],
    });
  }
}
