/**
 * The year's receipts as one zip, built from the stored PDFs (DECISIONS R9):
 * `GET /api/users/paymentHistory/receipts.zip?year=` streams `{year}-payments-history.zip`
 * with one `{activationDate}-payment.pdf` per payment, stored as they are.
 */
import {
  noReceiptsMessage,
  receiptFileName,
  uniqueFileNames,
  yearZipFileName,
} from '@dealerpass/domain/billing/payment-history';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { parseIsoDate } from '@dealerpass/domain/time/calendar-date';
import { AppError } from '../../errors/app-error.ts';
import { isPdf, zipDownload, type IZipDownload } from './zip-download.ts';

/** One payment of the year as stored: its business date and the receipt made when it succeeded. */
export interface IStoredReceipt {
  /** 'YYYY-MM-DD' (anything after the date is ignored). */
  activationDate: string;
  receiptPdf: Buffer;
}

/**
 * The year zip. Entries are in date order and dated with their activation date; two payments on
 * one day become '…-payment.pdf' and '…-payment-2.pdf' in the order given. No payment in the
 * year answers 404 with the specification's no-receipt text (000 §8).
 */
export function buildYearZip(
  year: number,
  payments: readonly IStoredReceipt[],
  options: { supportPhone: string },
): IZipDownload {
  if (payments.length === 0) {
    throw new AppError(ERROR_CODES.NOT_FOUND, {
      message: noReceiptsMessage(year, options.supportPhone),
    });
  }
  const dated = payments.map((payment) => {
    const date = parseIsoDate(payment.activationDate);
    // The caller selects the year's rows and stores only our own receipts: anything else is a bug.
    if (!date || date.year !== year) {
      throw new Error(`payment dated ${payment.activationDate} is not in ${year}`);
    }
    if (!isPdf(payment.receiptPdf)) throw new Error('a stored receipt is not a PDF');
    return { payment, at: new Date(Date.UTC(date.year, date.month - 1, date.day)) };
  });
  dated.sort((a, b) => a.at.getTime() - b.at.getTime()); // stable: same-day payments keep their order
  const names = uniqueFileNames(
    dated.map(({ payment }) => receiptFileName(payment.activationDate)),
  );
  const entries = dated.map(({ payment, at }, i) => ({
    name: names[i]!,
    data: payment.receiptPdf,
    modifiedAt: at,
  }));
  // Dates are written as they are (UTC midnight read in UTC): the listing shows the activation date.
  return zipDownload(yearZipFileName(year), entries, dated.at(-1)!.at, 'UTC');
}
