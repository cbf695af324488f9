import { eq, sql, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { balanceEntries } from '../../db/schema.ts';
import { unnestRows } from '../../db/bulk.ts';

/**
 * The one definition of an account's balance (R4: positive owed, negative credit): the sum of
 * its entries. Everything that shows or charges a balance reads it through here, so a payment,
 * a fee or a credit cannot be recorded without the balance following. This one is the balance
 * of the `users` row a query selects.
 */
export function balanceCentsOfUser(): SQL<number> {
  // Spelled out: inside a select of `users`, drizzle leaves column names unqualified, and here
  // "user_id" and "id" would both resolve to the entries' own columns.
  return sql<number>`coalesce((select sum(entry.amount_cents) from balance_entries entry where entry.user_id = "users"."id"), 0)::int`;
}

export async function getBalanceCents(db: Database | Transaction, userId: string): Promise<number> {
  const [row] = await db
    .select({ cents: sql<number>`coalesce(sum(${balanceEntries.amountCents}), 0)::int` })
    .from(balanceEntries)
    .where(eq(balanceEntries.userId, userId));
  return Number(row?.cents ?? 0);
}

export type BalanceEntry = Pick<
  typeof balanceEntries.$inferInsert,
  'userId' | 'kind' | 'amountCents' | 'source'
>;

/** Writes entries in one statement; an entry whose source is already recorded is skipped. */
export async function addBalanceEntries(
  tx: Database | Transaction,
  entries: readonly BalanceEntry[],
  now: Date,
): Promise<void> {
  if (entries.length === 0) return;
  const rows = unnestRows(entries, {
    user_id: ['uuid', (entry) => entry.userId],
    kind: ['text', (entry) => entry.kind],
    amount_cents: ['int', (entry) => entry.amountCents],
    source: ['text', (entry) => entry.source],
    at: ['timestamptz', () => now.toISOString()],
  });
  await tx.execute(sql`
    insert into ${balanceEntries} (${rows.names}) ${rows.select}
    on conflict (source) do nothing`);
}

/** A billing period's charge: what it bills for the period itself, without a balance it carried. */
export function periodChargeEntry(period: {
  id: string;
  userId: string;
  amountCents: number;
  quote: unknown;
}): BalanceEntry {
  const lines = (period.quote as { lines?: { code: string; cents: number }[] } | null)?.lines ?? [];
  const carried = lines
    .filter((line) => line.code === CARRIED_BALANCE_CODE)
    .reduce((sum, line) => sum + line.cents, 0);
  return {
    userId: period.userId,
    kind: 'charge',
    amountCents: period.amountCents - carried,
    source: `charge:${period.id}`,
  };
}

/**
 * A paid period as entries (R4): its charge, and the payment that settles it. The balance moves by
 * the two together, so a payment for the period's amount leaves it where it was.
 */
export function paidPeriodEntries(
  period: Parameters<typeof periodChargeEntry>[0],
  payment: { id: string; amountCents: number },
): BalanceEntry[] {
  return [
    periodChargeEntry(period),
    {
      userId: period.userId,
      kind: 'payment',
      amountCents: -payment.amountCents,
      source: `payment:${payment.id}`,
    },
  ];
}

/** The receipt line code of a balance a charge collected (a reactivation's previous balance or credit). */
export const CARRIED_BALANCE_CODE = 'BALANCE';
