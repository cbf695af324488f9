import { asc } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { payments } from '../../db/schema.ts';
import { buildYearZip } from '../receipts/build-year-zip.ts';
import { readStoredReceipts } from '../receipts/stored-receipt.ts';
import type { IZipDownload } from '../receipts/zip-download.ts';
import { paymentsInYear } from './payments-in-year.ts';

/**
 * `GET /api/users/paymentHistory/receipts.zip?year=` (DECISIONS R9): the account's stored
 * receipts of the year as `{year}-payments-history.zip` (docs/decisions/011).
 *
 * One query reads the year's receipts: a year holds a payment a month and the odd reactivation,
 * about 40 kB each once read back (decision 066), so half a megabyte at most. Nothing is then
 * held open while the zip is sent (no connection, no cursor), and the archive comes from
 * `buildYearZip`, the code `bench/year-zip.ts` measures. Same-day payments keep the order they
 * were made in.
 *
 * A year without receipts answers 404 with the specification's text (000 §8), before a byte.
 */
export async function yearReceiptsZip(
  db: Database,
  input: { userId: string; year: number; supportPhone: string },
): Promise<IZipDownload> {
  const rows = await db
    .select({
      activationDate: payments.activationDate,
      receiptPdf: payments.receiptPdf,
      receiptCrc32: payments.receiptCrc32,
    })
    .from(payments)
    .where(paymentsInYear(input.userId, input.year))
    .orderBy(asc(payments.activationDate), asc(payments.createdAt), asc(payments.id));
  const pdfs = await readStoredReceipts(
    db,
    rows.map((row) => row.receiptPdf),
  );
  return buildYearZip(
    input.year,
    rows.map((row, index) => ({ ...row, receiptPdf: pdfs[index]! })),
    { supportPhone: input.supportPhone },
  );
}
