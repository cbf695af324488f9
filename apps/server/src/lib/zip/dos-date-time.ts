/**
 * MS-DOS date and time as zip headers carry them: local wall-clock time with two-second
 * resolution and no zone (APPNOTE 4.4.6). We read the instant in a zone the caller names.
 */

import { wallClockIn } from '@dealerpass/domain/time/calendar-date';

export interface IDosDateTime {
  date: number;
  time: number;
}

const FIRST = { year: 1980, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
const LAST = { year: 2107, month: 12, day: 31, hour: 23, minute: 59, second: 58 };

/** Midnight of a calendar day (month 1–12), clamped like dosDateTime. */
export function dosDate(year: number, month: number, day: number): IDosDateTime {
  if (year < FIRST.year) return { date: (1 << 5) | 1, time: 0 };
  if (year > LAST.year) return dosDateTime(new Date(Date.UTC(LAST.year + 1, 0, 1)));
  return { date: ((year - 1980) << 9) | (month << 5) | day, time: 0 };
}

/** The instant's wall-clock time in `timeZone`, clamped to what DOS can say (1980–2107). */
export function dosDateTime(instant: Date, timeZone = 'UTC'): IDosDateTime {
  if (Number.isNaN(instant.getTime())) throw new Error('zip entry time is not a valid date');
  let t = wallClockIn(instant, timeZone);
  if (t.year < FIRST.year) t = FIRST;
  if (t.year > LAST.year) t = LAST;
  return {
    date: ((t.year - 1980) << 9) | (t.month << 5) | t.day,
    time: (t.hour << 11) | (t.minute << 5) | (t.second >> 1),
  };
}
