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
import type { IZipEntry } from '../../lib/zip/stored-zip.ts';
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

/** The number of two digits at `at`, or -1 (no regex and no slices: this runs per receipt). */
function twoDigits(text: string, at: number): number {
  const tens = text.charCodeAt(at) - 48;
  const ones = text.charCodeAt(at + 1) - 48;
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : -1;
}

/**
 * A 'YYYY-MM-DD' text of `year`, with a month of 01–12 and a day of 01–31, as month * 100 + day;
 * -1 for anything else.
 */
function monthDayIn(text: string, year: number): number {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return -1;
  const century = twoDigits(text, 0);
  const rest = twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  if (century < 0 || rest < 0 || century * 100 + rest !== year) return -1;
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 ? month * 100 + day : -1;
}

interface IYearEntry extends IZipEntry {
  day: string;
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
  const entries: IYearEntry[] = payments.map((payment) => {
    // The caller selects the year's rows (a date column) and stores only our own receipts:
    // anything else is a bug, so a cheap check of the shape is enough.
    const stamp = payment.activationDate;
    const day = stamp.length === 10 ? stamp : stamp.slice(0, 10);
    const monthDay = monthDayIn(day, year);
    if (monthDay < 0) throw new Error(`payment dated ${stamp} is not in ${year}`);
    if (!isPdf(payment.receiptPdf)) throw new Error('a stored receipt is not a PDF');
    return {
      day,
      name: '',
      data: payment.receiptPdf,
      crc32: payment.receiptCrc32 ?? undefined,
      // Dated with the activation date (at midnight), as the history lists it.
      modifiedAt: dosDate(year, Math.floor(monthDay / 100), monthDay % 100),
    };
  });
  // Year-first text sorts as dates do; the sort is stable, so same-day payments keep their order.
  entries.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  // In date order a day's payments are neighbours: the second of a day is '…-payment-2.pdf', as
  // uniqueFileNames names them (without its map, which costs more than the rest per receipt).
  let sameDay = 0;
  entries.forEach((entry, i) => {
    sameDay = i > 0 && entries[i - 1]!.day === entry.day ? sameDay + 1 : 1;
    entry.name =
      sameDay === 1
        ? receiptFileName(entry.day)
        : uniqueFileNames(Array.from({ length: sameDay }, () => receiptFileName(entry.day)))[
            sameDay - 1
          ]!;
  });
  const last = entries.at(-1)!.day;
  const archiveTime = new Date(
    Date.UTC(year, Number(last.slice(5, 7)) - 1, Number(last.slice(8, 10))),
  );
  return zipDownload(yearZipFileName(year), entries, archiveTime, 'UTC');
}
