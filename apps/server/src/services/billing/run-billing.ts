import { and, eq } from 'drizzle-orm';
import { anyOf } from '../../db/bulk.ts';
import { subscriptions } from '../../db/schema.ts';
import { recordBillingRun } from './run/record-billing-run.ts';
import { keepLeased, RETRYABLE_FAILURE_DELAY_MS } from './charge-lease.ts';
import type { ApprovedCharge, BillingDeps, BillingRunResult } from './ledger/billing-deps.ts';
import { completeReactivation } from './ledger/complete-reactivation.ts';
import { failReactivation } from './ledger/fail-reactivation.ts';
import { recordDecline } from './ledger/record-decline.ts';
import { recordExtraDecline } from './ledger/record-extra-decline.ts';
import { recordPayments } from './ledger/record-payment.ts';
import { sendCharge, type Outcome } from './ledger/send-charge.ts';
import { claimDueAccounts, type ClaimedBatch } from './run/claim-due-accounts.ts';
import { preferIndexLookups } from './run/prefer-index-lookups.ts';
import { runAnnualBillingJobs } from '../annual-billing/annual-jobs.ts';

// The run's callers (the schedule, the script, the tests) know it by this module.
export { CHARGE_LEASE_MS, RETRYABLE_FAILURE_DELAY_MS } from './charge-lease.ts';
export type { BillingDeps, BillingRunResult } from './ledger/billing-deps.ts';

/** Accounts claimed per transaction, and charged concurrently before their record. */
const DEFAULT_BATCH_SIZE = 1000;
/** Batches handled at once by one run (each claim skips the others' rows). */
const DEFAULT_WORKERS = 5;

/**
 * The recurring billing run (DECISIONS R4, issue 5). Every account whose period has ended is
 * handled once: pending cancellations become inactive; others are charged the domain's quote of
 * that moment. Safe with any number of concurrent runs and after any crash:
 * - rows are claimed with FOR UPDATE SKIP LOCKED and leased while their charge is in flight;
 * - a period exists once per account (unique user + period start), created before any charge,
 *   with the card its attempt charges;
 * - the gateway call carries the period attempt's idempotency key and that card, the same on
 *   every retry, so a rerun after a crash between the charge and its record gets the first
 *   answer back;
 * - the payment row is unique per period.
 * A reactivation left pending by a crash (its lease run out) is finished the same way.
 *
 * Throughput (bench/billing-run.ts): batches are claimed, opened and recorded with a few
 * multi-row statements each, their charges run concurrently, and several batches are in
 * flight at once.
 */
export async function runBilling(
  deps: BillingDeps,
  options: {
    batchSize?: number;
    /** Batches in flight at once (default 5). */ workers?: number;
    /** Only this account (a new card's immediate retry, R4). */ userId?: string;
    /**
     * Only charges a stopped run or request left behind: a claimed attempt still due whose lease
     * ran out (the frequent takeover check between scheduled runs).
     */
    abandonedOnly?: boolean;
    /**
     * With `userId`: the attempt is one outside R4's schedule (staff's retry, R16). A decline or
     * an unanswered charge leaves the schedule as it was: `scheduledRetryAt` is put back.
     */
    extraAttempt?: { scheduledRetryAt: Date | null };
  } = {},
): Promise<BillingRunResult> {
  const result: BillingRunResult = { charged: 0, declined: 0, deactivated: 0, retryLater: 0 };
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const workers = options.userId ? 1 : Math.max(1, options.workers ?? DEFAULT_WORKERS);
  const run = async () => {
    // R14, before any claim: due invoices voided, renewal invoices issued (annual-jobs.ts).
    if (!options.userId && !options.abandonedOnly) await runAnnualBillingJobs(deps);
    await Promise.all(
      Array.from({ length: workers }, async () => {
        // One attempt outside the schedule at most (R16): what is due after it (a card saved
        // meanwhile, or a scheduled retry already due) is the schedule's own attempt. Repeating
        // the extra attempt would put a due retry back each time and never end.
        let extraAttempt = options.extraAttempt;
        for (;;) {
          const claimed = await claimDueAccounts(deps, batchSize, result, options);
          if (claimed === null) return;
          await chargeAndRecord(deps, claimed, result, extraAttempt);
          extraAttempt = undefined;
        }
      }),
    );
    return result;
  };
  // One account's immediate retry (a new card) is a request's work, not a run of the schedule.
  if (options.userId) return run();
  return recordBillingRun(deps, options.abandonedOnly ? 'takeover' : 'full', result, run);
}

/**
 * Phases 2 and 3: the batch's charges (outside any transaction) with its leases renewed while
 * they run, then their records. The renewals stop before the records: a record clears or moves
 * the lease itself, and a renewal beside its transaction could only contend for the same rows.
 */
async function chargeAndRecord(
  deps: BillingDeps,
  batch: ClaimedBatch,
  result: BillingRunResult,
  extraAttempt?: { scheduledRetryAt: Date | null },
): Promise<void> {
  const claimed = batch.renewals;
  const leases = keepLeased(
    deps,
    claimed.map((renewal) => renewal.userId),
    batch.lease,
  );
  let outcomes: Outcome[];
  try {
    outcomes = await mapConcurrently(claimed, deps.payments.chargeConcurrency, (renewal) =>
      sendCharge(deps, renewal),
    );
  } finally {
    batch.lease = await leases.stop();
  }
  const approvedRenewals: ApprovedCharge[] = [];
  const retryLater: string[] = [];
  for (const [i, renewal] of claimed.entries()) {
    const outcome = outcomes[i]!;
    if (outcome.status === 'retry') {
      retryLater.push(renewal.userId);
      result.retryLater += 1;
      continue;
    }
    const now = deps.now();
    if (renewal.kind === 'reactivation') {
      await deps.db.transaction((tx) =>
        outcome.status === 'approved'
          ? completeReactivation(tx, deps, renewal, outcome.transactionId, now, 'billing-run')
          : failReactivation(tx, renewal, outcome.reason, now, 'billing-run'),
      );
      if (outcome.status === 'approved') result.charged += 1;
      else result.declined += 1;
      continue;
    }
    if (outcome.status === 'approved') {
      approvedRenewals.push({ renewal, transactionId: outcome.transactionId });
    } else {
      await deps.db.transaction((tx) =>
        extraAttempt
          ? recordExtraDecline(tx, renewal, now, outcome.reason, extraAttempt.scheduledRetryAt)
          : recordDecline(
              tx,
              deps,
              renewal.userId,
              now,
              outcome.reason,
              renewal.periodId,
              renewal.idempotencyKey,
            ),
      );
      result.declined += 1;
      result.declineReason = outcome.reason;
    }
  }
  if (approvedRenewals.length > 0) {
    const now = deps.now();
    await deps.db.transaction(async (tx) => {
      await preferIndexLookups(tx);
      await recordPayments(tx, deps, approvedRenewals, now);
    });
    result.charged += approvedRenewals.length;
  }
  if (retryLater.length > 0) {
    // The same request goes again later (a later run, after this delay), not every minute; an
    // extra attempt's at the schedule's own next retry (the claimed card and key go with it).
    await deps.db
      .update(subscriptions)
      .set({
        nextRetryAt: extraAttempt
          ? extraAttempt.scheduledRetryAt
          : new Date(deps.now().getTime() + RETRYABLE_FAILURE_DELAY_MS),
      })
      .where(
        and(
          anyOf(subscriptions.userId, retryLater, 'uuid'),
          eq(subscriptions.nextRetryAt, batch.lease),
        ),
      );
  }
}

async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  });
  await Promise.all(lanes);
  return results;
}
