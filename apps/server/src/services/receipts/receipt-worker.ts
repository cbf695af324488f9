/**
 * A receipt-rendering thread (receipt-renderer.ts): renders and packs the receipts of one job and
 * sends back their columns, each in a buffer of its own so it can be moved, not copied.
 */
import { parentPort } from 'node:worker_threads';
import { renderReceipt, type IReceipt } from './render-receipt.ts';
import { receiptColumns } from './stored-receipt.ts';

export interface IReceiptJob {
  id: number;
  receipts: IReceipt[];
}

export type TReceiptJobAnswer =
  | { id: number; results: { receiptPdf: Uint8Array; receiptCrc32: number }[] }
  | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('receipt-worker.ts runs as a worker thread only');
port.on('message', (job: IReceiptJob) => {
  try {
    const results = job.receipts.map((receipt) => {
      const columns = receiptColumns(renderReceipt(receipt));
      // Small buffers share Node's pool: copied into one of their own before it is moved.
      return { receiptPdf: new Uint8Array(columns.receiptPdf), receiptCrc32: columns.receiptCrc32 };
    });
    const answer: TReceiptJobAnswer = { id: job.id, results };
    port.postMessage(
      answer,
      results.map((result) => result.receiptPdf.buffer as ArrayBuffer),
    );
  } catch (error) {
    const answer: TReceiptJobAnswer = {
      id: job.id,
      error: error instanceof Error ? error.message : String(error),
    };
    port.postMessage(answer);
  }
});
