import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { retryTransactions, TRANSACTION_ATTEMPTS } from '../../src/db/retry-transaction.ts';

/** A database whose transactions fail with these errors in turn, then answer 'done'. */
function failingDatabase(failures: unknown[]) {
  let calls = 0;
  const db = {
    transaction: async (run: (tx: unknown) => Promise<unknown>) => {
      calls += 1;
      const failure = failures.shift();
      if (failure) throw failure;
      return run({});
    },
  } as unknown as Database;
  retryTransactions(db);
  return { db, calls: () => calls };
}

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });
/** As drizzle wraps a driver's error: the SQLSTATE is on the cause. */
const wrapped = (code: string) => new Error('Failed query', { cause: pgError(code) });

describe('a transaction that loses a race is run again (docs/decisions/028)', () => {
  it('retries a deadlock (40P01) and a serialization failure (40001), wrapped or not', async () => {
    const { db, calls } = failingDatabase([pgError('40P01'), wrapped('40001'), wrapped('40P01')]);
    await expect(db.transaction(async () => 'done')).resolves.toBe('done');
    expect(calls()).toBe(4);
  });

  it('gives up after its tries, with the last failure', async () => {
    const failures = Array.from({ length: TRANSACTION_ATTEMPTS + 1 }, () => pgError('40P01'));
    const { db, calls } = failingDatabase(failures);
    await expect(db.transaction(async () => 'done')).rejects.toMatchObject({ code: '40P01' });
    expect(calls()).toBe(TRANSACTION_ATTEMPTS);
  });

  it('never retries any other failure: a unique violation, a refusal of ours', async () => {
    const unique = failingDatabase([wrapped('23505')]);
    await expect(unique.db.transaction(async () => 'done')).rejects.toThrow('Failed query');
    expect(unique.calls()).toBe(1);
    const refusal = failingDatabase([new Error('refused')]);
    await expect(refusal.db.transaction(async () => 'done')).rejects.toThrow('refused');
    expect(refusal.calls()).toBe(1);
  });
});
