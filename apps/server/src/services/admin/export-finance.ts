import { PassThrough, type Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import {
  dollarsText,
  FINANCE_EXPORT_COLUMNS,
  financeExportRange,
  type TFinanceExportQuery,
} from '@dealerpass/domain/staff/finance-export';
import { parseIsoDate, addDays, startOfDayIn } from '@dealerpass/domain/time/calendar-date';
import type { Database } from '../../db/client.ts';
import { csvRecord } from '../../lib/csv.ts';
import { movementsQuery, type FinanceRange } from './finance-movements.ts';

/** Rows fetched from the cursor at a time, and written to the stream as one chunk. */
const FETCH_ROWS = 2_000;

interface MovementRow {
  business_date: string;
  kind: string;
  method: string;
  amount_cents: number;
  account_id: string;
  account_email: string;
  dealership: string;
  quote: { lines?: { name: string; cents: number }[]; platformFeeCents?: number } | string | null;
  gateway_transaction_id: string | null;
  payment_id: string;
  movement_id: string;
  recorded_at: Date | string;
}

/** Resolves once the reader has taken what was written, or has gone away. */
function drained(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const go = () => {
      stream.off('drain', go);
      stream.off('close', go);
      resolve();
    };
    stream.on('drain', go);
    stream.on('close', go);
  });
}

/** The export's dates as instants in the business time zone (R4). */
export function financeRangeOf(query: TFinanceExportQuery, timeZone: string): FinanceRange {
  const { from, to } = financeExportRange(query);
  return {
    from,
    to,
    start: startOfDayIn(parseIsoDate(from)!, timeZone),
    end: startOfDayIn(addDays(parseIsoDate(to)!, 1), timeZone),
    timeZone,
  };
}

/** The period's priced lines as one cell: 'Manheim Market Report 65.00; Platform fee 3.00'. */
function itemsText(quote: MovementRow['quote']): string {
  const parsed = typeof quote === 'string' ? (JSON.parse(quote) as MovementRow['quote']) : quote;
  if (!parsed || typeof parsed !== 'object') return '';
  const lines = (parsed.lines ?? []).map((line) => `${line.name} ${dollarsText(line.cents)}`);
  if (parsed.platformFeeCents) lines.push(`Platform fee ${dollarsText(parsed.platformFeeCents)}`);
  return lines.join('; ');
}

function recordOf(row: MovementRow): string {
  const at = row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at);
  const cents = Number(row.amount_cents);
  return csvRecord([
    row.business_date,
    row.kind,
    row.method,
    cents < 0 ? 'out' : 'in',
    dollarsText(Math.abs(cents)),
    'USD',
    row.account_id,
    row.account_email,
    row.dealership,
    itemsText(row.quote),
    row.gateway_transaction_id,
    row.payment_id,
    row.movement_id,
    at.toISOString(),
  ]);
}

/**
 * Every money movement of the range as CSV (issue 29): RFC 4180 and formula-safe through
 * `lib/csv.ts`, UTF-8, a header row, one row per movement in business-date order. Streamed: one
 * query through a cursor in a read-only snapshot, FETCH_ROWS at a time, each batch written when
 * the reader has taken the last one, so the file is never held whole. `done` tells how many rows
 * went out, or the failure (the stream is destroyed with it too).
 */
export function streamFinanceExport(
  db: Database,
  range: FinanceRange,
): { stream: Readable; done: Promise<number> } {
  const stream = new PassThrough();
  const done = db
    .transaction(
      async (tx) => {
        let rows = 0;
        await tx.execute(sql`declare finance_export no scroll cursor for ${movementsQuery(range)}`);
        if (!stream.write(csvRecord(FINANCE_EXPORT_COLUMNS))) await drained(stream);
        for (;;) {
          if (stream.destroyed) throw new Error('the reader went away');
          const page = (await tx.execute(
            sql.raw(`fetch forward ${FETCH_ROWS} from finance_export`),
          )) as unknown as { rows: MovementRow[] };
          if (page.rows.length === 0) break;
          rows += page.rows.length;
          let chunk = '';
          for (const row of page.rows) chunk += recordOf(row);
          if (!stream.write(chunk)) await drained(stream);
        }
        await tx.execute(sql`close finance_export`);
        return rows;
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    )
    .then(
      (rows) => {
        stream.end();
        return rows;
      },
      (error: unknown) => {
        stream.destroy(error instanceof Error ? error : new Error(String(error)));
        throw error;
      },
    );
  return { stream, done };
}
