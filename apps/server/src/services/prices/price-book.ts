import { asc } from 'drizzle-orm';
import { isPricedItem, type IPriceRow, type TPriceTable } from '@dealerpass/domain/prices';
import type { Database, Transaction } from '../../db/client.ts';
import { prices } from '../../db/schema.ts';

/**
 * The price table as the server uses it (DECISIONS R11): read from the database, kept in memory
 * and read again on a schedule and after every change this process schedules. A price is
 * scheduled at least 30 days ahead, so an instance that reads the table every few minutes never
 * charges a price another instance scheduled too late to see.
 */
export interface PriceBook {
  /** The table as last read; the same object until it is read again (quotes index it once). */
  table(): TPriceTable;
  /** Reads the table again. */
  refresh(): Promise<TPriceTable>;
}

/** Every row in effective order (the opening prices first); equal instants keep their insertion order. */
export async function loadPriceTable(db: Database | Transaction): Promise<TPriceTable> {
  const rows = await db
    .select({ item: prices.item, effectiveFrom: prices.effectiveFrom, cents: prices.cents })
    .from(prices)
    .orderBy(asc(prices.effectiveFrom), asc(prices.id));
  return rows.flatMap((row): IPriceRow[] =>
    isPricedItem(row.item)
      ? [{ item: row.item, from: row.effectiveFrom?.toISOString() ?? null, cents: row.cents }]
      : [],
  );
}

export async function createPriceBook(db: Database): Promise<PriceBook> {
  let current = await loadPriceTable(db);
  return {
    table: () => current,
    refresh: async () => {
      current = await loadPriceTable(db);
      return current;
    },
  };
}
