import { gt, sql } from 'drizzle-orm';
import { toIsoDate, calendarDateIn } from '@dealerpass/domain/time/calendar-date';
import type { Database } from '../../../db/client.ts';
import { priceChangeNotices } from '../../../db/schema.ts';
import { findAccountsBilledAtChange } from '../../prices/find-accounts-billed-at-change.ts';
import { listPriceChanges } from '../../prices/schedule-price-change.ts';
import { loadPriceTable } from '../../prices/price-book.ts';

/**
 * The console's prices page (R11, R12): every price row, newest first, and each change still
 * ahead with the accounts it will bill at its prices and the notices sent for it (at scheduling,
 * and in the welcome e-mail of every sign-up since, docs/decisions/032). The count is the
 * scheduling's own query (`findAccountsBilledAtChange`); the two can still differ when an account
 * changed its selection after the notices went out.
 */
export async function listPriceSchedule(db: Database, now: Date, timeZone: string) {
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

  const notices = await db
    .select({
      effectiveFrom: priceChangeNotices.effectiveFrom,
      n: sql<number>`count(*)::int`,
    })
    .from(priceChangeNotices)
    .where(gt(priceChangeNotices.effectiveFrom, now))
    .groupBy(priceChangeNotices.effectiveFrom);
  const sent = new Map(notices.map((row) => [row.effectiveFrom.toISOString(), Number(row.n)]));
  const scheduled = [];
  for (const effectiveFrom of ahead) {
    const effectiveDate = toIsoDate(calendarDateIn(new Date(effectiveFrom), timeZone));
    const reached = await findAccountsBilledAtChange(db, table, {
      effectiveFrom,
      effectiveDate,
      today: toIsoDate(calendarDateIn(now, timeZone)),
      timeZone,
    });
    scheduled.push({
      effectiveFrom,
      effectiveDate,
      rows: prices.filter((row) => row.effectiveFrom === effectiveFrom),
      accountsAffected: reached.length,
      noticesSent: sent.get(effectiveFrom) ?? 0,
    });
  }
  return { prices, scheduled };
}
