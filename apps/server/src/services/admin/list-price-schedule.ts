import { and, gt, sql } from 'drizzle-orm';
import { COMPLIMENTARY_DETAIL } from '@dealerpass/domain/account/status';
import { applyPendingRemovals } from '@dealerpass/domain/billing/proration';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { quote } from '@dealerpass/domain/prices';
import type { Database } from '../../db/client.ts';
import { priceChangeNotices, subscriptions, users } from '../../db/schema.ts';
import { listPriceChanges } from '../prices/schedule-price-change.ts';
import { loadPriceTable } from '../prices/price-book.ts';

/**
 * The console's prices page (R11, R12): every price row, newest first, and each change still
 * ahead with the accounts whose monthly total it moves today and the notices sent for it. The
 * two can differ: an account that signed up or changed its selection after the change was
 * scheduled was not told (R11 tells at scheduling), which is what this page lets staff see.
 */
export async function listPriceSchedule(db: Database, now: Date) {
  const [rows, table] = await Promise.all([listPriceChanges(db), loadPriceTable(db)]);
  const prices = rows.map((row) => ({
    item: row.item,
    effectiveFrom: row.effectiveFrom?.toISOString() ?? null,
    cents: row.cents,
    scheduledBy: row.scheduledBy,
    scheduledAt: row.createdAt.toISOString(),
  }));
  const ahead = [
    ...new Set(
      rows
        .filter((row) => row.effectiveFrom && row.effectiveFrom.getTime() > now.getTime())
        .map((row) => row.effectiveFrom!.toISOString()),
    ),
  ].sort();
  if (ahead.length === 0) return { prices, scheduled: [] };

  const [accounts, notices] = await Promise.all([
    db
      .select({
        status: users.accountStatus,
        details: users.accountStatusDetails,
        codes: subscriptions.codes,
        autoExtras: subscriptions.autoExtras,
        pendingRemovals: subscriptions.pendingRemovals,
      })
      .from(subscriptions)
      .innerJoin(users, sql`${users.id} = ${subscriptions.userId}`),
    db
      .select({
        effectiveFrom: priceChangeNotices.effectiveFrom,
        n: sql<number>`count(*)::int`,
      })
      .from(priceChangeNotices)
      .where(and(gt(priceChangeNotices.effectiveFrom, now)))
      .groupBy(priceChangeNotices.effectiveFrom),
  ]);
  // What each renewing account pays from its next bill (as the scheduling counts them).
  const selections = accounts
    .filter(
      (account) =>
        account.status !== 'inactive' &&
        (account.details ?? '').trim().toLowerCase() !== COMPLIMENTARY_DETAIL,
    )
    .map(
      (account) =>
        applyPendingRemovals(
          {
            codes: account.codes as TSubscriptionCode[],
            autoExtras: account.autoExtras as TSubscriptionCode[],
          },
          account.pendingRemovals,
        ).codes,
    );
  // Many accounts hold the same selection: each distinct one is priced once.
  const counted = new Map<string, { codes: readonly TSubscriptionCode[]; accounts: number }>();
  for (const codes of selections) {
    const key = [...codes].sort().join(',');
    const entry = counted.get(key);
    if (entry) entry.accounts += 1;
    else counted.set(key, { codes, accounts: 1 });
  }
  const sent = new Map(notices.map((row) => [row.effectiveFrom.toISOString(), Number(row.n)]));
  return {
    prices,
    scheduled: ahead.map((effectiveFrom) => {
      const at = new Date(effectiveFrom);
      const before = new Date(at.getTime() - 1);
      let affected = 0;
      for (const { codes, accounts } of counted.values()) {
        if (quote(codes, before, table).totalCents !== quote(codes, at, table).totalCents)
          affected += accounts;
      }
      return {
        effectiveFrom,
        rows: prices.filter((row) => row.effectiveFrom === effectiveFrom),
        accountsAffected: affected,
        noticesSent: sent.get(effectiveFrom) ?? 0,
      };
    }),
  };
}
