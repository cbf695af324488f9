import { readStoredReceipt } from '../../src/services/receipts/stored-receipt.ts';
import type { TestApp } from './helper.ts';

/** The PDF a payment row's `receiptPdf` holds (decision 066: stored without its shared parts). */
export function storedReceiptPdf(t: TestApp, stored: Buffer): Promise<Buffer> {
  return readStoredReceipt(t.app.db, stored);
}
