/** Payment history rules (000 §4, §7, §9; DECISIONS R9). */
import { calendarDateIn } from '../time/calendar-date.ts';

/** 000 §9: none before 2020. */
export const FIRST_HISTORY_YEAR = 2020;
/** 000 §9: the last 5 years. */
export const HISTORY_YEAR_COUNT = 5;

/** The year selector: the current business year first, back 5 years, none before 2020. */
export function paymentHistoryYears(now: Date, timeZone: string): number[] {
  const current = calendarDateIn(now, timeZone).year;
  const years: number[] = [];
  for (let year = current; year > current - HISTORY_YEAR_COUNT; year -= 1) {
    if (year >= FIRST_HISTORY_YEAR) years.push(year);
  }
  return years;
}

/** The selector's default: the current business year (000 §4). */
export function defaultHistoryYear(now: Date, timeZone: string): number {
  return calendarDateIn(now, timeZone).year;
}

/** 000 §9: newest first. activationDate is year-first text, so text order is date order. */
export function sortPaymentsNewestFirst<T extends { activationDate: string }>(
  payments: readonly T[],
): T[] {
  return [...payments].sort((a, b) =>
    a.activationDate < b.activationDate ? 1 : a.activationDate > b.activationDate ? -1 : 0,
  );
}

/** A single receipt: '{activationDate}-payment.pdf' (000 §7, R9). */
export function receiptFileName(activationDate: string): string {
  return `${activationDate.slice(0, 10)}-payment.pdf`;
}

/** A staff refund's receipt (R12): '{refundDate}-refund.pdf', beside its payment's. */
export function refundReceiptFileName(refundDate: string): string {
  return `${refundDate.slice(0, 10)}-refund.pdf`;
}

/** The year's receipts: '{year}-payments-history.zip' (000 §7, R9). */
export function yearZipFileName(year: number): string {
  return `${year}-payments-history.zip`;
}

/** 000 §8: shown when a year has no receipts. */
export function noReceiptsMessage(year: number, phone: string): string {
  return `We are unable to process your request. You do not have a current receipt available for ${year}, please contact Support at ${phone} to obtain a copy.`;
}

/** Makes names unique for one zip: a second '2025-03-01-payment.pdf' becomes '…-payment-2.pdf'. */
export function uniqueFileNames(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    if (count === 1) return name;
    const dot = name.lastIndexOf('.');
    return dot > 0 ? `${name.slice(0, dot)}-${count}${name.slice(dot)}` : `${name}-${count}`;
  });
}
