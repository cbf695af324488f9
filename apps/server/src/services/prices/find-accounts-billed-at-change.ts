import { inArray, sql } from 'drizzle-orm';
import { RENEWING_STATUSES } from '@dealerpass/domain/account/status-transitions';
import {
  isBilledAtChange,
  monthlyTotalChangeAt,
  type IMonthlyTotalChange,
} from '@dealerpass/domain/billing/price-change';
import { applyPendingRemovals } from '@dealerpass/domain/billing/proration';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import type { TPriceTable } from '@dealerpass/domain/prices';
import type { Database, Transaction } from '../../db/client.ts';
import { subscriptions, users } from '../../db/schema.ts';

export interface AccountBilledAtChange {
  userId: string;
  email: string;
  firstName: string;
  change: IMonthlyTotalChange;
}

/**
 * The accounts a price change reaches (R11 amended, docs/decisions/032): those that will be
 * billed at its prices (the domain's `isBilledAtChange`) and whose monthly total it moves, with
 * the old and new total. `table` holds the change's rows. The one query behind scheduling, its
 * preview and the console's count, so the three cannot count differently.
 */
export async function findAccountsBilledAtChange(
  db: Database | Transaction,
  table: TPriceTable,
  change: { effectiveFrom: string; effectiveDate: string },
): Promise<AccountBilledAtChange[]> {
  const accounts = await db
    .select({
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      status: users.accountStatus,
      complimentary: users.complimentary,
      codes: subscriptions.codes,
      autoExtras: subscriptions.autoExtras,
      pendingRemovals: subscriptions.pendingRemovals,
      periodEnd: subscriptions.currentPeriodEnd,
    })
    .from(subscriptions)
    .innerJoin(users, sql`${users.id} = ${subscriptions.userId}`)
    .where(inArray(users.accountStatus, [...RENEWING_STATUSES]))
    .orderBy(users.email);
  // Many accounts hold the same selection: each distinct one is priced once.
  const moved = new Map<string, IMonthlyTotalChange | null>();
  return accounts.flatMap((account) => {
    const standing = {
      status: account.status,
      complimentary: account.complimentary,
      periodEnd: account.periodEnd,
    };
    if (!isBilledAtChange(standing, change.effectiveDate)) return [];
    // What the account pays from its next bill: its selection without the pending removals.
    const codes = applyPendingRemovals(
      {
        codes: account.codes as TSubscriptionCode[],
        autoExtras: account.autoExtras as TSubscriptionCode[],
      },
      account.pendingRemovals,
    ).codes;
    const key = [...codes].sort().join(',');
    if (!moved.has(key)) {
      moved.set(
        key,
        monthlyTotalChangeAt(codes, table, change.effectiveFrom, change.effectiveDate),
      );
    }
    const total = moved.get(key);
    if (!total) return [];
    return [
      { userId: account.userId, email: account.email, firstName: account.firstName, change: total },
    ];
  });
}
