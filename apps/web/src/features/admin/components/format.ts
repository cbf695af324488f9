import { formatCurrency } from '@dealerpass/domain/money';
import { calendarDateIn } from '@dealerpass/domain/time/calendar-date';
import { runtimeConfig } from '../../../lib/runtime-config.ts';

/** The console's money: cents from the API, dollars on screen ($1,234.50; credits as -$5.00). */
export function money(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '—';
  return formatCurrency(cents);
}

const DATE_TIME = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
});
const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/** An instant in the staff member's own time zone. */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DATE_TIME.format(date);
}

/** A business date (YYYY-MM-DD) as written, never shifted by a time zone. */
export function businessDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? value : DATE.format(date);
}

export function yesNo(value: boolean | null | undefined): string {
  return value ? 'Yes' : 'No';
}

/**
 * The business date of an instant (R4: counted in the business time zone), e.g. a price change's
 * midnight, which in the member's own zone may fall on the evening before.
 */
export function businessDateOf(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const day = calendarDateIn(date, runtimeConfig().businessTimeZone);
  return DATE.format(new Date(Date.UTC(day.year, day.month - 1, day.day)));
}
