import { and, eq } from 'drizzle-orm';
import { anyOf } from '../../db/bulk.ts';
import { subscriptions } from '../../db/schema.ts';
import type { BillingDeps } from './ledger/billing-deps.ts';

/**
 * While a charge is in flight no other run touches the account. The lease is short and the run
 * that holds it renews it while it works (LEASE_RENEWAL_MS), so after a crash another run takes
 * the charge over within about a minute (issue 13) instead of leaving it unrecorded.
 */
export const CHARGE_LEASE_MS = 60 * 1000;
/** How often a live run renews its leases: three renewals a lease, so one late tick loses nothing. */
export const LEASE_RENEWAL_MS = CHARGE_LEASE_MS / 3;
/** After a retryable gateway failure (no answer, a later try asked for), the charge waits this long. */
export const RETRYABLE_FAILURE_DELAY_MS = 10 * 60 * 1000;

/**
 * Keeps a live run's leases from running out while it works: every `leaseRenewalMs` the accounts
 * whose lease is still the one this run set get a new one. A lease another run has taken over,
 * or that a record has cleared or replaced meanwhile, no longer matches and is left alone, so a
 * renewal never overrides a retry date. `stop()` ends the renewals and waits for one in flight;
 * it resolves to the lease the accounts hold then.
 */
export function keepLeased(
  deps: Pick<BillingDeps, 'db' | 'now' | 'log' | 'leaseRenewalMs'>,
  userIds: readonly string[],
  lease: Date,
): { stop(): Promise<Date> } {
  let held = [...userIds];
  let current = lease;
  let renewing: Promise<void> = Promise.resolve();
  const renew = async () => {
    const next = new Date(deps.now().getTime() + CHARGE_LEASE_MS);
    if (held.length === 0 || next <= current) return;
    const renewed = await deps.db
      .update(subscriptions)
      .set({ nextRetryAt: next })
      .where(and(anyOf(subscriptions.userId, held, 'uuid'), eq(subscriptions.nextRetryAt, current)))
      .returning({ userId: subscriptions.userId });
    held = renewed.map((row) => row.userId);
    current = next;
  };
  const timer = setInterval(() => {
    renewing = renewing
      .then(renew)
      .catch((error: unknown) => deps.log.warn({ err: error }, 'billing lease renewal failed'));
  }, deps.leaseRenewalMs ?? LEASE_RENEWAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await renewing;
      return current;
    },
  };
}
