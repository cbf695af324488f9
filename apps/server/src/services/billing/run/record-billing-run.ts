import { eq } from 'drizzle-orm';
import { billingRuns } from '../../../db/schema.ts';
import type { BillingDeps, BillingRunResult } from '../ledger/billing-deps.ts';

/**
 * Keeps the record of one billing run for the dunning page (R12, docs/decisions/026): a full run
 * is written when it starts (so a run that stopped shows as still running) and completed with its
 * counts when it ends; a takeover check, which runs every minute and mostly finds nothing, is
 * written at its end and only when it did something. Two statements a run at most: the run's
 * throughput (bench:billing) does not notice them.
 */
export async function recordBillingRun(
  deps: Pick<BillingDeps, 'db' | 'now' | 'log'>,
  kind: 'full' | 'takeover',
  result: BillingRunResult,
  run: () => Promise<BillingRunResult>,
): Promise<BillingRunResult> {
  const startedAt = deps.now();
  let id: number | null = null;
  if (kind === 'full') {
    const [row] = await deps.db
      .insert(billingRuns)
      .values({ kind, status: 'running', startedAt })
      .returning({ id: billingRuns.id });
    id = row?.id ?? null;
  }
  let status: 'finished' | 'failed' = 'failed';
  try {
    await run();
    status = 'finished';
    return result;
  } finally {
    const counts = {
      status,
      finishedAt: deps.now(),
      charged: result.charged,
      declined: result.declined,
      deactivated: result.deactivated,
      errors: result.retryLater,
    };
    const didSomething =
      status === 'failed' ||
      result.charged + result.declined + result.deactivated + result.retryLater > 0;
    // The record must not turn a run's outcome into another: a failed write is only logged.
    try {
      if (id !== null) await deps.db.update(billingRuns).set(counts).where(eq(billingRuns.id, id));
      else if (didSomething)
        await deps.db.insert(billingRuns).values({ kind, startedAt, ...counts });
    } catch (error) {
      deps.log.warn({ err: error }, 'billing run record not written');
    }
  }
}
