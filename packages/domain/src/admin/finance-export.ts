/**
 * The finance export (issue 29, "Finance exports"): every money movement of a month or a range
 * of business dates (R4's time zone) as CSV, one row per movement. The query and its messages,
 * the columns, and how an amount is written; the server streams the rows.
 */
import { z } from 'zod';
import {
  CALENDAR_DATE_PATTERN,
  addDays,
  daysBetween,
  parseIsoDate,
  toIsoDate,
} from '../time/calendar-date.ts';

export const FINANCE_EXPORT_MESSAGES = {
  month: 'Enter a month as YYYY-MM.',
  date: 'Enter a date as YYYY-MM-DD.',
  range: 'Choose a month, or a first and a last date.',
  order: 'The last date must not be before the first.',
  tooLong: 'Choose a range of at most 366 days.',
} as const;

/** The longest range one export covers: a year, leap day included. */
export const FINANCE_EXPORT_MAX_DAYS = 366;

/**
 * The kinds of money movement, in the order a day's rows list them: a payment (by card or check),
 * a refund, a chargeback, and a returned check (R14: a check that paid an invoice came back
 * unpaid, its payment taken back on the day it was returned). Another kind joins here, and as a
 * source in the server's `money-movements.ts`.
 */
export const FINANCE_MOVEMENT_KINDS = [
  'payment',
  'refund',
  'chargeback',
  'returned check',
] as const;
export type TFinanceMovementKind = (typeof FINANCE_MOVEMENT_KINDS)[number];

/**
 * The CSV's header row, in column order. `amount` is unsigned and `direction` says which way the
 * money went ('in' for a payment, 'out' for a refund, a chargeback or a returned check): lib/csv.ts's formula rule
 * writes a cell starting with '-' as text, so a signed "-70.00" would not add up in a spreadsheet.
 */
export const FINANCE_EXPORT_COLUMNS = [
  'business_date',
  'kind',
  'method',
  'direction',
  'amount',
  'currency',
  'account_id',
  'account_email',
  'dealership',
  'items',
  'gateway_transaction_id',
  'payment_id',
  'movement_id',
  'recorded_at',
] as const;

const ZDateSchema = z.string().regex(CALENDAR_DATE_PATTERN, {
  message: FINANCE_EXPORT_MESSAGES.date,
});

/** `?month=2026-03`, or `?from=2026-03-01&to=2026-03-31` (business dates, both included). */
export const ZFinanceExportQuerySchema = z
  .strictObject({
    month: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: FINANCE_EXPORT_MESSAGES.month })
      .optional(),
    from: ZDateSchema.optional(),
    to: ZDateSchema.optional(),
  })
  .superRefine((query, ctx) => {
    const range = query.from !== undefined || query.to !== undefined;
    if ((query.month !== undefined) === range || (range && (!query.from || !query.to))) {
      ctx.addIssue({ code: 'custom', path: ['month'], message: FINANCE_EXPORT_MESSAGES.range });
      return;
    }
    // A date its own check refused is reported there: no order or length to judge.
    const from = query.from ? parseIsoDate(query.from) : null;
    const to = query.to ? parseIsoDate(query.to) : null;
    if (!from || !to) return;
    const days = daysBetween(from, to);
    if (days < 0) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: FINANCE_EXPORT_MESSAGES.order });
    } else if (days + 1 > FINANCE_EXPORT_MAX_DAYS) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: FINANCE_EXPORT_MESSAGES.tooLong });
    }
  });
export type TFinanceExportQuery = z.infer<typeof ZFinanceExportQuerySchema>;

/** The first and last business date of an export ('YYYY-MM-DD', both included). */
export function financeExportRange(query: TFinanceExportQuery): { from: string; to: string } {
  if (query.month) {
    const first = parseIsoDate(`${query.month}-01`)!;
    const next =
      first.month === 12
        ? { year: first.year + 1, month: 1, day: 1 }
        : { year: first.year, month: first.month + 1, day: 1 };
    return { from: toIsoDate(first), to: toIsoDate(addDays(next, -1)) };
  }
  return { from: query.from!, to: query.to! };
}

/** An amount in dollars with two decimals, '-' for money going back: 13800 → '138.00'. */
export function dollarsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const whole = Math.abs(cents);
  return `${sign}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}
