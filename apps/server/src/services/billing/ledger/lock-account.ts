import { asc, eq } from 'drizzle-orm';
import { anyOf } from '../../../db/bulk.ts';
import type { Transaction } from '../../../db/client.ts';
import { users } from '../../../db/schema.ts';

export type AccountRow = typeof users.$inferSelect;

/**
 * The first lock of every transaction that writes an account's money or status
 * (docs/decisions/028): the account's `users` row. Whoever holds it is alone on the account, so
 * what it locks after (the subscription, then payments, periods, refunds, the rest) no other
 * money or status transaction holds: two of them wait for each other at this row, never in a
 * circle further on.
 *
 * `FOR NO KEY UPDATE`: it excludes every other such lock and every update of the row, but not
 * the key share a foreign key's check takes when another transaction inserts a row pointing at
 * the account (an account event, a session), which `FOR UPDATE` would make wait on, or deadlock
 * with. Returns the row as it is now, or null when there is no such account.
 */
export async function lockAccount(tx: Transaction, userId: string): Promise<AccountRow | null> {
  const [row] = await tx.select().from(users).where(eq(users.id, userId)).for('no key update');
  return row ?? null;
}

/**
 * The same for several accounts at once (a billing run's batch), in the order of their ids, so
 * two batches that share accounts lock them in one order too.
 */
export async function lockAccounts(
  tx: Transaction,
  userIds: readonly string[],
): Promise<AccountRow[]> {
  if (userIds.length === 0) return [];
  return tx
    .select()
    .from(users)
    .where(anyOf(users.id, [...new Set(userIds)], 'uuid'))
    .orderBy(asc(users.id))
    .for('no key update');
}
