import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  noReceiptsMessage,
  receiptFileName,
  uniqueFileNames,
  yearZipFileName,
} from '@dealerpass/domain/billing/payment-history';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { Database } from '../../db/client.ts';
import { payments } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { dosDate } from '../../lib/zip/dos-date-time.ts';
import { createStoredZip, storedZipSize, type IZipEntry } from '../../lib/zip/stored-zip.ts';
import { isPdf, type IZipDownload } from '../receipts/zip-download.ts';
import { paymentsInYear } from './payments-in-year.ts';

/** Receipts read per query while the zip is sent: a few kilobytes each. */
export const RECEIPTS_PER_QUERY = 4;

const NO_DATA = new Uint8Array(0);

/**
 * `GET /api/users/paymentHistory/receipts.zip?year=` (DECISIONS R9): the year's stored receipts
 * as `{year}-payments-history.zip`, the same archive `buildYearZip` makes (entries in date order,
 * '{activationDate}-payment.pdf', '-2' for a second payment on one day, dated with the payment
 * date), but fed from the database as it is sent: one query lists the payments with their sizes,
 * which gives the exact Content-Length, and the PDFs follow a few at a time as the reader pulls.
 * No connection is held between queries, so a slow download holds none.
 *
 * Everything that can be refused is refused before the stream exists (404 with the
 * specification's text for a year without receipts, 000 §8); a failure later can only cut the
 * download short, which the Content-Length lets the browser see.
 */
export async function streamYearReceipts(
  db: Database,
  input: { userId: string; year: number; supportPhone: string; receiptsPerQuery?: number },
): Promise<IZipDownload> {
  const { userId, year } = input;
  const perQuery = input.receiptsPerQuery ?? RECEIPTS_PER_QUERY;
  const listed = await db
    .select({
      id: payments.id,
      activationDate: payments.activationDate,
      size: sql<number>`octet_length(${payments.receiptPdf})`.mapWith(Number),
      head: sql<string>`encode(substring(${payments.receiptPdf} from 1 for 5), 'hex')`,
    })
    .from(payments)
    .where(paymentsInYear(userId, year))
    .orderBy(asc(payments.activationDate), asc(payments.createdAt), asc(payments.id));

  if (listed.length === 0) {
    throw new AppError(ERROR_CODES.NOT_FOUND, {
      message: noReceiptsMessage(year, input.supportPhone),
    });
  }
  // Only our own receipts are stored: anything else is a bug, refused before the first byte.
  if (listed.some((row) => !isPdf(Buffer.from(row.head, 'hex')))) {
    throw new Error('a stored receipt is not a PDF');
  }

  const names = uniqueFileNames(listed.map((row) => receiptFileName(row.activationDate)));
  // A stored entry's size is its headers plus its data, so the headers are sized without data.
  const byteLength =
    storedZipSize(names.map((name) => ({ name, data: NO_DATA }))) +
    listed.reduce((sum, row) => sum + row.size, 0);

  async function* entries(): AsyncGenerator<IZipEntry> {
    for (let start = 0; start < listed.length; start += perQuery) {
      const batch = listed.slice(start, start + perQuery);
      const rows = await db
        .select({
          id: payments.id,
          receiptPdf: payments.receiptPdf,
          receiptCrc32: payments.receiptCrc32,
        })
        .from(payments)
        .where(
          and(
            eq(payments.userId, userId),
            inArray(
              payments.id,
              batch.map((row) => row.id),
            ),
          ),
        );
      const storedOf = new Map(rows.map((row) => [row.id, row]));
      for (const [i, row] of batch.entries()) {
        const stored = storedOf.get(row.id);
        const data = stored?.receiptPdf;
        // Receipts never change once stored; if one did, the announced length would be wrong.
        if (!data || data.byteLength !== row.size) {
          throw new Error(`the receipt of payment ${row.id} changed while its zip was sent`);
        }
        yield {
          name: names[start + i]!,
          data,
          // Stored with the receipt by the billing engine (older rows: computed by the writer).
          crc32: stored.receiptCrc32 ?? undefined,
          modifiedAt: midnightOf(row.activationDate),
        };
      }
    }
  }

  const fileName = yearZipFileName(year);
  return {
    fileName,
    byteLength,
    headers: {
      'content-type': 'application/zip',
      'content-disposition': `attachment; filename="${fileName}"`,
      'content-length': String(byteLength),
    },
    entryNames: names,
    stream: createStoredZip(entries(), {
      // Every entry carries its own date; this default is never written.
      modifiedAt: new Date(`${listed.at(-1)!.activationDate}T00:00:00Z`),
      timeZone: 'UTC',
    }),
  };
}

/** The payment date at midnight, as the history lists it and `buildYearZip` dates it. */
function midnightOf(activationDate: string) {
  const [year, month, day] = activationDate.split('-').map(Number) as [number, number, number];
  return dosDate(year, month, day);
}
