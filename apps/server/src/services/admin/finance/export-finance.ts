import { PassThrough, type Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import {
  dollarsText,
  FINANCE_EXPORT_COLUMNS,
  financeExportRange,
  type TFinanceExportQuery,
} from '@dealerpass/domain/admin/finance-export';
import {
  addDays,
  daysBetween,
  parseIsoDate,
  startOfDayIn,
  toIsoDate,
} from '@dealerpass/domain/time/calendar-date';
import type { Database, Transaction } from '../../../db/client.ts';
import { csvField, csvRecord } from '../../../lib/csv.ts';
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
  /** The payment's quote in `billing_quotes` (decision 062). */
  quote_id: string | null;
  gateway_transaction_id: string | null;
  payment_id: string;
  movement_id: string;
  /** ISO 8601 in UTC. */
  recorded_at: string;
}

/** Resolves once the reader has taken what was written (true), or has gone away (false). */
function drained(stream: PassThrough): Promise<boolean> {
  return new Promise((resolve) => {
    const go = () => {
      stream.off('drain', go);
      stream.off('close', go);
      resolve(!stream.destroyed);
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
 * A quote's priced lines as one CSV cell: 'Manheim Market Report 65.00; Platform fee 3.00',
 * written by csvField (its `;` makes it quoted).
 */
function itemsCell(quote: Quote | null): string {
  const lines = (quote?.lines ?? []).map((line) => `${line.name} ${dollarsText(line.cents)}`);
  if (quote?.platformFeeCents) lines.push(`Platform fee ${dollarsText(quote.platformFeeCents)}`);
  return csvField(lines.join('; '));
}

/**
 * The items' cells of an export by quote id. A month's payments share a handful of quotes, so each
 * is read from `billing_quotes` and written as a cell once per export, the first time a batch of
 * rows names it (decision 062; reading every row's quote with it was the export's slowest part).
 */
type QuoteCells = Map<string, string>;

async function readQuoteCells(tx: Transaction, rows: MovementRow[], cells: QuoteCells) {
  const missing = new Set<string>();
  for (const row of rows) {
    if (row.quote_id !== null && !cells.has(row.quote_id)) missing.add(row.quote_id);
  }
  if (missing.size === 0) return;
  const ids = sql.join(
    [...missing].map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const found = (await tx.execute(
    sql`select id::text as id, quote from billing_quotes where id in (${ids})`,
  )) as unknown as { rows: { id: string; quote: Quote | null }[] };
  for (const { id, quote } of found.rows) cells.set(id, itemsCell(quote));
}

/** One movement's record: its cells as csvRecord writes them, the items' cell by its quote. */
function recordOf(row: MovementRow, quotes: QuoteCells): string {
  const cents = Number(row.amount_cents);
  const before = [
    row.business_date,
    row.kind,
    row.method,
    cents < 0 ? 'out' : 'in',
    dollarsText(Math.abs(cents)),
    'USD',
    row.account_id,
    row.account_email,
    row.dealership,
  ];
  const after = [row.gateway_transaction_id, row.payment_id, row.movement_id, row.recorded_at];
  return `${before.map(csvField).join(',')},${row.quote_id === null ? '' : (quotes.get(row.quote_id) ?? '')},${after.map(csvField).join(',')}\r\n`;
}

/**
 * How many connections an export may read with at once. On PostgreSQL two: the range's two halves
 * of business dates are sorted by two server processes, the second while the first is written.
 * PGlite is one connection. At most TWO_READER_EXPORTS exports hold a second connection at a time,
 * so exports that wait for one can never take the whole pool.
 */
export interface FinanceExportOptions {
  readers: 1 | 2;
}
const TWO_READER_EXPORTS = 2;
let twoReaderExports = 0;

/** The range as two ranges of whole business dates, in order; one when it is a single date. */
function halvesOf(range: FinanceRange): FinanceRange[] {
  const first = parseIsoDate(range.from)!;
  const days = daysBetween(first, parseIsoDate(range.to)!) + 1;
  if (days < 2) return [range];
  const middle = addDays(first, Math.ceil(days / 2) - 1);
  return [
    financeRangeOf({ from: range.from, to: toIsoDate(middle) }, range.timeZone),
    financeRangeOf({ from: toIsoDate(addDays(middle, 1)), to: range.to }, range.timeZone),
  ];
}

type Page = { rows: MovementRow[] };

/**
 * One range's rows through a cursor, FETCH_ROWS at a time: the first batch is asked for at once
 * (the server runs the query, sort included, while anything before it is still being written), and
 * each next batch before the current one is written, but never while the reader has not taken the
 * last: at most two batches are held.
 */
function openReader(tx: Transaction, range: FinanceRange, cursor: string) {
  const fetchPage = () =>
    tx.execute(sql.raw(`fetch forward ${FETCH_ROWS} from ${cursor}`)) as unknown as Promise<Page>;
  const first = tx
    .execute(sql`declare ${sql.raw(cursor)} no scroll cursor for ${movementsQuery(range)}`)
    .then(fetchPage);
  // Read by writeTo, or given up (the export failed before): either way never an unheard failure.
  first.catch(() => undefined);
  return {
    /** Writes the rows as CSV; answers how many, or throws when the reader went away. */
    async writeTo(stream: PassThrough, quotes: QuoteCells): Promise<number> {
      let rows = 0;
      let next: Promise<Page> | null = first;
      while (next) {
        const page: Page = await next;
        if (page.rows.length === 0) break;
        // Before the next batch is asked for: the connection answers one query at a time.
        await readQuoteCells(tx, page.rows, quotes);
        next = page.rows.length === FETCH_ROWS ? fetchPage() : null;
        rows += page.rows.length;
        let chunk = '';
        for (const row of page.rows) chunk += recordOf(row, quotes);
        if (stream.destroyed || (!stream.write(chunk) && !(await drained(stream)))) {
          await next?.catch(() => undefined);
          throw new Error('the reader went away');
        }
      }
      await tx.execute(sql.raw(`close ${cursor}`));
      return rows;
    },
    settled: () => first.then(() => undefined),
  };
}

/**
 * Memory for each reader's sort, which holds its rows with their texts (a half-month of 100,000
 * accounts is about 40 MB): in memory, not merged on disk (decision 056). At most
 * 2 × TWO_READER_EXPORTS + the one-reader exports hold it at once.
 */
const SORT_MEMORY = '64MB';
/** One snapshot, read only; no compiling (JIT) of a query that is over in about a second. */
const READ_ONLY = { isolationLevel: 'repeatable read', accessMode: 'read only' } as const;

/**
 * Every money movement of the range as CSV (issue 29): RFC 4180 and formula-safe through
 * `lib/csv.ts`, UTF-8, a header row, one row per movement in business-date order. Streamed through
 * cursors in one read-only snapshot, so the file is never held whole (`openReader`). With two
 * readers the second half of the range is read on a second connection that imports the first
 * one's snapshot (`pg_export_snapshot`, as a parallel pg_dump does): the same rows as one reader,
 * in the same order, sooner. `done` tells how many rows went out, or the failure (the stream is
 * destroyed with it too).
 */
export function streamFinanceExport(
  db: Database,
  range: FinanceRange,
  options: FinanceExportOptions = { readers: 1 },
): { stream: Readable; done: Promise<number> } {
  const stream = new PassThrough();
  const parts =
    options.readers === 2 && twoReaderExports < TWO_READER_EXPORTS ? halvesOf(range) : [range];
  if (parts.length === 2) twoReaderExports += 1;
  const done = db
    .transaction(async (tx) => {
      const quotes: QuoteCells = new Map();
      await tx.execute(sql`set local jit = off`);
      await tx.execute(sql.raw(`set local work_mem = '${SORT_MEMORY}'`));
      if (!stream.write(csvRecord(FINANCE_EXPORT_COLUMNS))) await drained(stream);
      if (parts.length === 1) {
        return openReader(tx, range, 'finance_export').writeTo(stream, quotes);
      }
      const [exported] = (
        (await tx.execute(sql`select pg_export_snapshot() as snapshot`)) as unknown as {
          rows: { snapshot: string }[];
        }
      ).rows;
      const snapshot = exported?.snapshot ?? '';
      if (!/^[0-9A-F-]+$/i.test(snapshot)) throw new Error(`unexpected snapshot id ${snapshot}`);
      let firstHalfWritten!: (written: boolean) => void;
      const firstHalf = new Promise<boolean>((resolve) => (firstHalfWritten = resolve));
      const secondHalf = db.transaction(async (second) => {
        await second.execute(sql.raw(`set transaction snapshot '${snapshot}'`));
        await second.execute(sql`set local jit = off`);
        await second.execute(sql.raw(`set local work_mem = '${SORT_MEMORY}'`));
        const reader = openReader(second, parts[1]!, 'finance_export_second');
        if (!(await firstHalf)) {
          await reader.settled().catch(() => undefined);
          throw new Error('the first half was not written');
        }
        return reader.writeTo(stream, quotes);
      }, READ_ONLY);
      let rows: number;
      try {
        rows = await openReader(tx, parts[0]!, 'finance_export').writeTo(stream, quotes);
      } catch (error) {
        firstHalfWritten(false);
        await secondHalf.catch(() => undefined);
        throw error;
      }
      firstHalfWritten(true);
      return rows + (await secondHalf);
    }, READ_ONLY)
    .finally(() => {
      if (parts.length === 2) twoReaderExports -= 1;
    })
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
