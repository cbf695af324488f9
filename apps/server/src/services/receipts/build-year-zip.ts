/**
 * The year's receipts as one zip, built from the stored PDFs (DECISIONS R9):
 * `GET /api/users/paymentHistory/receipts.zip?year=` streams `{year}-payments-history.zip`
 * with one `{activationDate}-payment.pdf` per payment, stored as they are.
 */
import { crc32 } from 'node:zlib';
import {
  noReceiptsMessage,
  receiptFileName,
  uniqueFileNames,
  yearZipFileName,
} from '@dealerpass/domain/billing/payment-history';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { AppError } from '../../errors/app-error.ts';
import { dosDate } from '../../lib/zip/dos-date-time.ts';
import { isPdf, zipDownload, type IZipDownload } from './zip-download.ts';

/** One payment of the year as stored: its business date and the receipt made when it succeeded. */
export interface IStoredReceipt {
  /** 'YYYY-MM-DD' (anything after the date is ignored). */
  activationDate: string;
  receiptPdf: Buffer;
  /** receiptCrc32(receiptPdf), stored with it; computed when the zip is built otherwise. */
  receiptCrc32?: number | null;
}

/**
 * The receipt's CRC-32, for the billing engine to store beside the PDF when the payment
 * succeeds: the receipt never changes, and the year zip then has nothing left to compute.
 */
export function receiptCrc32(receiptPdf: Uint8Array): number {
  return crc32(receiptPdf);
}

const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

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
  const prefix = `${year}-`;
  const entries = payments.map((payment) => {
    // The caller selects the year's rows (a date column) and stores only our own receipts:
    // anything else is a bug, so a cheap check of the shape is enough.
    const day = payment.activationDate.slice(0, 10);
    if (!ISO_DATE.test(day) || !day.startsWith(prefix)) {
      throw new Error(`payment dated ${payment.activationDate} is not in ${year}`);
    }
    if (!isPdf(payment.receiptPdf)) throw new Error('a stored receipt is not a PDF');
    return {
      day,
      name: '',
      data: payment.receiptPdf,
      crc32: payment.receiptCrc32 ?? undefined,
      // Dated with the activation date (at midnight), as the history lists it.
      modifiedAt: dosDate(year, Number(day.slice(5, 7)), Number(day.slice(8, 10))),
    };
  });
  // Year-first text sorts as dates do; the sort is stable, so same-day payments keep their order.
  entries.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const names = uniqueFileNames(entries.map((entry) => receiptFileName(entry.day)));
  entries.forEach((entry, i) => (entry.name = names[i]!));
  const last = entries.at(-1)!.day;
  const archiveTime = new Date(
    Date.UTC(year, Number(last.slice(5, 7)) - 1, Number(last.slice(8, 10))),
  );
  return zipDownload(yearZipFileName(year), entries, archiveTime, 'UTC');
}
