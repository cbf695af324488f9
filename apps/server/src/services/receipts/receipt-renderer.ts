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

/** A thread stopped (or never started) before it answered: its share is rendered here instead. */
class ThreadStopped extends Error {}

/**
 * `threads` worker threads, started at the first batch large enough to need them. An idle thread
 * does not keep the process alive. A thread that dies, or cannot start, hands its share back to
 * the calling thread (reported through `onThreadStopped`) and is replaced at the next render: the
 * bytes are the same, so the run loses time, never a receipt; after three such stops in a row
 * the renderer stays on the calling thread. A receipt that cannot be rendered fails its render
 * wherever it is.
 */
export function threadedReceiptRenderer(
  threads: number,
  options: {
    onThreadStopped?: (error: Error) => void;
    /** The thread's module (tests give one that fails). */
    workerUrl?: URL;
  } = {},
): IReceiptRenderer {
  if (threads < 1) return inlineReceiptRenderer();
  const workerUrl = options.workerUrl ?? new URL('./receipt-worker.ts', import.meta.url);
  const pool: (IThread | null)[] = Array.from({ length: threads }, () => null);
  let nextId = 1;
  let closed = false;
  /** Threads stopped in a row without an answer between: at the limit, threads are given up. */
  let stoppedInARow = 0;
  const STOPPED_LIMIT = 3;

  const start = (slot: number): IThread => {
    const worker = new Worker(workerUrl);
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
      stoppedInARow = 0;
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
    worker.on('error', (error) =>
      fail(new ThreadStopped(`a receipt thread failed: ${error.message}`)),
    );
    worker.on('exit', (code) =>
      fail(new ThreadStopped(`a receipt thread stopped (exit code ${code})`)),
    );
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
      if (receipts.length < THREAD_MINIMUM || stoppedInARow >= STOPPED_LIMIT) {
        return renderHere(receipts);
      }
      // The batch in one contiguous share per thread, answered in the order given.
      const share = Math.ceil(receipts.length / threads);
      const parts: Promise<IReceiptColumns[]>[] = [];
      for (let slot = 0; slot * share < receipts.length; slot++) {
        const mine = receipts.slice(slot * share, (slot + 1) * share);
        parts.push(
          send(slot, mine).catch((error: unknown) => {
            if (!(error instanceof ThreadStopped) || closed) throw error;
            stoppedInARow++;
            options.onThreadStopped?.(error);
            return renderHere(mine);
          }),
        );
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
export function defaultReceiptRenderer(log?: {
  warn(details: object, message: string): void;
}): IReceiptRenderer {
  return threadedReceiptRenderer(Math.min(2, availableParallelism() - 1), {
    onThreadStopped: (error) =>
      log?.warn({ err: error }, 'receipts rendered on the run thread: a receipt thread stopped'),
  });
}
