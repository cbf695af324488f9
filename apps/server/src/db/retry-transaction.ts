import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from './client.ts';

/**
 * PostgreSQL's answers that mean "this transaction lost a race, run it again": a serialization
 * failure (40001) and a detected deadlock (40P01). Nothing of the transaction was committed.
 */
const RETRYABLE_STATES = new Set(['40001', '40P01']);

/** Tries of one transaction before its failure is the caller's (docs/decisions/028). */
export const TRANSACTION_ATTEMPTS = 5;

/** The SQLSTATE of a database error, as node-postgres or PGlite report it, wrapped or not. */
export function sqlState(error: unknown): string | null {
  let cause = error;
  for (let depth = 0; depth < 5 && typeof cause === 'object' && cause !== null; depth += 1) {
    const record = cause as { code?: unknown; cause?: unknown };
    if (typeof record.code === 'string' && /^[0-9A-Z]{5}$/.test(record.code)) return record.code;
    cause = record.cause;
  }
  return null;
}

export function isRetryableTransactionFailure(error: unknown): boolean {
  const state = sqlState(error);
  return state !== null && RETRYABLE_STATES.has(state);
}

/**
 * Makes every top-level `db.transaction(...)` retry its whole callback, a bounded number of times
 * with a short random pause, when PostgreSQL ends it as a deadlock or a serialization failure
 * (docs/decisions/028): the one place that rule lives, so a lost race is never a 500. Every
 * money or status transaction takes its locks in one order (the account first), which keeps
 * these rare; the retry covers what remains (a lock another path takes outside that order, a
 * multi-row statement). A transaction's callback touches only the database, so running it again
 * is safe: gateway calls are made outside transactions (decision 012's claim and lease). Nested
 * transactions (savepoints, `tx.transaction`) are not retried on their own: their outer one is.
 */
export function retryTransactions(db: Database): void {
  const transaction = db.transaction.bind(db);
  const retrying = async (...args: Parameters<Database['transaction']>) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await transaction(...args);
      } catch (error) {
        if (attempt >= TRANSACTION_ATTEMPTS || !isRetryableTransactionFailure(error)) throw error;
        // Apart again before the next try: the two losers of a deadlock do not meet at once again.
        await sleep(Math.floor(Math.random() * 20 * attempt) + 5);
      }
    }
  };
  db.transaction = retrying as Database['transaction'];
}
