import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { billingRuns, subscriptions, users } from '../../../db/schema.ts';
import { balanceCentsOfUser } from '../../billing/account-balance.ts';

/** Accounts the queue lists at most, soonest retry first. */
const QUEUE_LIMIT = 500;
/** The billing run's recent runs shown. */
const RUNS_SHOWN = 20;

/**
 * The dunning queue (R4, R12): accounts in validating payment with what they owe (their balance),
 * their failed attempts and when the run tries again, soonest first; and the billing run's
 * recent runs with their counts (services/billing/run/record-billing-run.ts).
 */
export async function listDunning(db: Database) {
  const [accounts, runs] = await Promise.all([
    db
      .select({
        userId: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        dealership: users.dealership,
        owedCents: balanceCentsOfUser(),
        failedAttempts: sql<number>`coalesce(${subscriptions.failedAttempts}, 0)::int`,
        nextRetryAt: subscriptions.nextRetryAt,
        nextBillDate: users.nextBillDate,
      })
      .from(users)
      .leftJoin(subscriptions, eq(subscriptions.userId, users.id))
      .where(eq(users.accountStatus, ACCOUNT_STATUS.validatingPayment))
      .orderBy(sql`${subscriptions.nextRetryAt} asc nulls last`, asc(users.email))
      .limit(QUEUE_LIMIT),
    db
      .select()
      .from(billingRuns)
      .orderBy(desc(billingRuns.startedAt), desc(billingRuns.id))
      .limit(RUNS_SHOWN),
  ]);
  return {
    accounts: accounts.map((row) => ({
      ...row,
      owedCents: Number(row.owedCents),
      failedAttempts: Number(row.failedAttempts),
      nextRetryAt: row.nextRetryAt?.toISOString() ?? null,
    })),
    runs: runs.map((run) => ({
      id: run.id,
      kind: run.kind,
      status: run.status,
      startedAt: run.startedAt.toISOString(),
      finishedAt: run.finishedAt?.toISOString() ?? null,
      charged: run.charged,
      declined: run.declined,
      deactivated: run.deactivated,
      errors: run.errors,
    })),
  };
}
