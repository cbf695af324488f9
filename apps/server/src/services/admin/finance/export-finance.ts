import { PassThrough, type Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import {
  dollarsText,
  FINANCE_EXPORT_COLUMNS,
  financeExportRange,
  type TFinanceExportQuery,
} from '@dealerpass/domain/admin/finance-export';
import { parseIsoDate, addDays, startOfDayIn } from '@dealerpass/domain/time/calendar-date';
import type { Database } from '../../../db/client.ts';
import { csvRecord } from '../../../lib/csv.ts';
import { movementsQuery, type FinanceRange } from './finance-movements.ts';

/** Rows fetched from the cursor at a time, and written to the stream as one chunk. */
const FETCH_ROWS = 5_000;

interface MovementRow {
  business_date: string;
  kind: string;
  method: string;
  amount_cents: number;
  account_id: string;
  account_email: string;
  dealership: string;
  /** The period's quote as JSON text. */
  quote: string | null;
  gateway_transaction_id: string | null;
  payment_id: string;
  movement_id: string;
  /** ISO 8601 in UTC. */
  recorded_at: string;
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

interface Quote {
  lines?: { name: string; cents: number }[];
  platformFeeCents?: number;
}

/**
 * The period's priced lines as one cell: 'Manheim Market Report 65.00; Platform fee 3.00'. A
 * month's periods share a few quotes, so each distinct text is read once per export.
 */
function itemsText(quote: string | null, seen: Map<string, string>): string {
  if (!quote) return '';
  let text = seen.get(quote);
  if (text === undefined) {
    const parsed = JSON.parse(quote) as Quote | null;
    const lines = (parsed?.lines ?? []).map((line) => `${line.name} ${dollarsText(line.cents)}`);
    if (parsed?.platformFeeCents) {
      lines.push(`Platform fee ${dollarsText(parsed.platformFeeCents)}`);
    }
    text = lines.join('; ');
    seen.set(quote, text);
  }
  return text;
}

function recordOf(row: MovementRow, quotes: Map<string, string>): string {
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
    itemsText(row.quote, quotes),
    row.gateway_transaction_id,
    row.payment_id,
    row.movement_id,
    row.recorded_at,
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
        const quotes = new Map<string, string>();
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
          for (const row of page.rows) chunk += recordOf(row, quotes);
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
