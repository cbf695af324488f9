import { and, eq } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { Database } from '../../../db/client.ts';
import { payments } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import { readStoredReceipt } from '../../receipts/stored-receipt.ts';

/**
 * A payment's stored PDF receipt for the console (R9's file name), only through the account it
 * belongs to: a payment id under another account is not found, as an unknown one is.
 */
export async function getAccountReceipt(
  db: Database,
  userId: string,
  paymentId: string,
): Promise<{ pdf: Buffer; fileName: string }> {
  const [row] = await db
    .select({ pdf: payments.receiptPdf, activationDate: payments.activationDate })
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.userId, userId)));
  if (!row) throw new AppError(ERROR_CODES.NOT_FOUND);
  return {
    pdf: await readStoredReceipt(db, row.pdf),
    fileName: `${row.activationDate}-payment.pdf`,
  };
}
