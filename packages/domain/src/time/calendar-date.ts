/**
 * Calendar dates in a business time zone (DECISIONS R4), with native Intl only. A calendar
 * date is a plain { year, month, day } so that no code has to guess what a Date means.
 */

export interface ICalendarDate {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

export const DEFAULT_BUSINESS_TIME_ZONE = 'America/New_York';
export const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether Intl knows this IANA name. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

function wallClock(instant: Date, timeZone: string): Record<string, number> {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return parts;
}

export interface IWallClock extends ICalendarDate {
  hour: number;
  minute: number;
  second: number;
}

/** What a clock on the wall in the time zone shows at an instant (24-hour, whole seconds). */
export function wallClockIn(instant: Date, timeZone: string): IWallClock {
  const p = wallClock(instant, timeZone);
  return {
    year: p.year ?? 0,
    month: p.month ?? 0,
    day: p.day ?? 0,
    hour: p.hour ?? 0,
    minute: p.minute ?? 0,
    second: p.second ?? 0,
  };
}

/** The calendar date an instant falls on in the time zone. */
export function calendarDateIn(instant: Date, timeZone: string): ICalendarDate {
  const p = wallClock(instant, timeZone);
  return { year: p.year ?? 0, month: p.month ?? 0, day: p.day ?? 0 };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const p = wallClock(new Date(instant), timeZone);
  const wall = Date.UTC(
    p.year ?? 0,
    (p.month ?? 1) - 1,
    p.day ?? 1,
    p.hour ?? 0,
    p.minute ?? 0,
    p.second ?? 0,
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The first instant of a calendar date in the time zone (handles DST transitions). */
export function startOfDayIn(date: ICalendarDate, timeZone: string): Date {
  const wall = Date.UTC(date.year, date.month - 1, date.day);
  let instant = wall - offsetAt(wall, timeZone);
  const corrected = wall - offsetAt(instant, timeZone);
  if (corrected !== instant) instant = corrected;
  // A zone that skips midnight (DST at 00:00) starts the day at the first existing instant.
  if (calendarDateIn(new Date(instant), timeZone).day !== date.day) instant += 3_600_000;
  return new Date(instant);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Adds whole months keeping `anchorDay` (default: the date's day), clamped to the month end. */
export function addMonthsClamped(
  date: ICalendarDate,
  months: number,
  anchorDay: number = date.day,
): ICalendarDate {
  const index = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return { year, month, day: Math.min(anchorDay, daysInMonth(year, month)) };
}

export function addDays(date: ICalendarDate, days: number): ICalendarDate {
  const t = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** Whole calendar days from `a` to `b` (negative when b is earlier). */
export function daysBetween(a: ICalendarDate, b: ICalendarDate): number {
  return Math.round(
    (Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / DAY_MS,
  );
}

export function compareDates(a: ICalendarDate, b: ICalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** 'YYYY-MM-DD' */
export function toIsoDate(date: ICalendarDate): string {
  const y = String(date.year).padStart(4, '0');
  return `${y}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/** Parses 'YYYY-MM-DD' (anything after the date, such as a time, is ignored); null if invalid. */
/** Years with a 29 February for `parseIsoDate` (year 0000 is read as 1900 by `Date.UTC`). */
const LEAP_YEAR = '[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00';

/**
 * The whole texts `parseIsoDate` reads: 'YYYY-MM-DD', a day that exists. One pattern, without
 * lookahead, that JSON Schema carries (docs/decisions/053); `calendar-date.test.ts` checks it
 * against `parseIsoDate`.
 */
export const CALENDAR_DATE_PATTERN = new RegExp(
  `^(?:(?:${LEAP_YEAR})-02-29|[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8])))$`,
);

export function parseIsoDate(text: string): ICalendarDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!match) return null;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  if (date.month < 1 || date.month > 12 || date.day < 1) return null;
  return date.day <= daysInMonth(date.year, date.month) ? date : null;
}

const MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

/** 'MMM DD, YYYY' (000 §4), e.g. 'Jan 05, 2026'; N/A when there is no date. */
export function formatCalendarDate(date: ICalendarDate | null | undefined): string {
  if (!date) return 'N/A';
  return `${MONTHS[date.month - 1] ?? ''} ${String(date.day).padStart(2, '0')}, ${date.year}`;
}

/** The same text for an instant, read in the business time zone. */
export function formatBusinessDate(instant: Date | null | undefined, timeZone: string): string {
  if (!instant || Number.isNaN(instant.getTime())) return 'N/A';
  return formatCalendarDate(calendarDateIn(instant, timeZone));
}
