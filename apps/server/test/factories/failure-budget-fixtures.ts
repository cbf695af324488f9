import { eq, sql } from 'drizzle-orm';
import { failureBudgets } from '../../src/db/schema.ts';
import { databaseFailureBudgets } from '../../src/services/limits/failure-budget-stores.ts';
import type { TestApp } from '../support/helper.ts';

/** Attempts the database holds as taken from `key`'s budget (docs/decisions/029), any age. */
export async function attemptsTaken(t: TestApp, key: string): Promise<number> {
  const [row] = await t.app.db
    .select({ n: sql<number>`cardinality(${failureBudgets.takenAt})` })
    .from(failureBudgets)
    .where(eq(failureBudgets.budgetKey, key));
  return Number(row?.n ?? 0);
}

/** Spends `count` attempts of `key`'s budget at `at`, as that many failed attempts would. */
export async function spendAttempts(
  t: TestApp,
  key: string,
  at: Date,
  count: number,
  windowMs = 60 * 60 * 1000,
): Promise<void> {
  const store = databaseFailureBudgets(t.app.db);
  for (let i = 0; i < count; i++) await store.take(key, at, windowMs);
}
