/**
 * Renders receipts for the billing run (decision 067). A tagged receipt with embedded fonts takes
 * about 0.25 ms of CPU to render and pack, half of the run's JavaScript per payment: on the run's
 * thread it was what bounded the run. Threads render a batch's receipts while the run's thread
 * goes on with the other batches' statements and charges.
 *
 * A few receipts (a reactivation, a subscription change) are rendered where they are asked for:
 * a thread's round trip costs more than the rendering. The bytes are the same either way.
 */
import { availableParallelism } from 'node:os';
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { renderReceipt, type IReceipt } from './render-receipt.ts';
import type { IReceiptJob, TReceiptJobAnswer } from './receipt-worker.ts';
import { receiptColumns, type IReceiptColumns } from './stored-receipt.ts';

export interface IReceiptRenderer {
  /** The receipts' payment-row columns, in the order given. */
  render(receipts: readonly IReceipt[]): Promise<IReceiptColumns[]>;
  /** Stops the threads; pending renders are refused. */
  close(): Promise<void>;
}

/** Below this many receipts a render stays on the calling thread. */
const THREAD_MINIMUM = 8;
/** Receipts rendered in one go on the calling thread before it lets other work in. */
const RECEIPTS_BETWEEN_YIELDS = 25;

/** Renders on the calling thread, letting other work in between every few receipts. */
async function renderHere(receipts: readonly IReceipt[]): Promise<IReceiptColumns[]> {
  const columns: IReceiptColumns[] = [];
  for (const [i, receipt] of receipts.entries()) {
    // A batch's receipts take tens of milliseconds: the web server's requests and the other
    // batches' statements are answered in between.
    if (i > 0 && i % RECEIPTS_BETWEEN_YIELDS === 0) await setImmediatePromise();
    columns.push(receiptColumns(renderReceipt(receipt)));
  }
  return columns;
}

/** Every receipt on the calling thread (tests, scripts, a one-core machine). */
export function inlineReceiptRenderer(): IReceiptRenderer {
  return { render: renderHere, close: async () => {} };
}

interface IThread {
  worker: Worker;
  pending: Map<
    number,
    { resolve: (columns: IReceiptColumns[]) => void; reject: (error: Error) => void }
  >;
}

/**
 * `threads` worker threads, started at the first batch large enough to need them. An idle thread
 * does not keep the process alive. A thread that dies fails its pending renders and is replaced
 * at the next one.
 */
export function threadedReceiptRenderer(threads: number): IReceiptRenderer {
  if (threads < 1) return inlineReceiptRenderer();
  const pool: (IThread | null)[] = Array.from({ length: threads }, () => null);
  let nextId = 1;
  let closed = false;

  const start = (slot: number): IThread => {
    const worker = new Worker(new URL('./receipt-worker.ts', import.meta.url));
    worker.unref();
    const thread: IThread = { worker, pending: new Map() };
    const fail = (error: Error) => {
      if (pool[slot] === thread) pool[slot] = null;
      for (const job of thread.pending.values()) job.reject(error);
      thread.pending.clear();
    };
    worker.on('message', (answer: TReceiptJobAnswer) => {
      const job = thread.pending.get(answer.id);
      if (!job) return;
      thread.pending.delete(answer.id);
      if (thread.pending.size === 0) worker.unref();
      if ('error' in answer) {
        job.reject(new Error(answer.error));
        return;
      }
      job.resolve(
        answer.results.map((result) => ({
          receiptPdf: Buffer.from(
            result.receiptPdf.buffer,
            result.receiptPdf.byteOffset,
            result.receiptPdf.byteLength,
          ),
          receiptCrc32: result.receiptCrc32,
        })),
      );
    });
    worker.on('error', (error) => fail(error));
    worker.on('exit', (code) => fail(new Error(`a receipt thread stopped (exit code ${code})`)));
    pool[slot] = thread;
    return thread;
  };

  const send = (slot: number, receipts: IReceipt[]): Promise<IReceiptColumns[]> => {
    const thread = pool[slot] ?? start(slot);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      // A thread with work keeps the process alive until it answers.
      if (thread.pending.size === 0) thread.worker.ref();
      thread.pending.set(id, { resolve, reject });
      const job: IReceiptJob = { id, receipts };
      thread.worker.postMessage(job);
    });
  };

  return {
    async render(receipts) {
      if (closed) throw new Error('the receipt renderer is closed');
      if (receipts.length < THREAD_MINIMUM) return renderHere(receipts);
      // The batch in one contiguous share per thread, answered in the order given.
      const share = Math.ceil(receipts.length / threads);
      const parts: Promise<IReceiptColumns[]>[] = [];
      for (let slot = 0; slot * share < receipts.length; slot++) {
        parts.push(send(slot, receipts.slice(slot * share, (slot + 1) * share)));
      }
      return (await Promise.all(parts)).flat();
    },
    async close() {
      closed = true;
      await Promise.all(
        pool.map(async (thread, slot) => {
          if (!thread) return;
          pool[slot] = null;
          await thread.worker.terminate();
        }),
      );
    },
  };
}

/** Threads for the billing run: the cores left beside the run's own thread, at most two. */
export function defaultReceiptRenderer(): IReceiptRenderer {
  return threadedReceiptRenderer(Math.min(2, availableParallelism() - 1));
}
