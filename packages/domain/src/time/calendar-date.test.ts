import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addDays,
  addMonthsClamped,
  calendarDateIn,
  compareDates,
  daysBetween,
  daysInMonth,
  formatBusinessDate,
  formatCalendarDate,
  isValidTimeZone,
  parseIsoDate,
  startOfDayIn,
  toIsoDate,
  wallClockIn,
} from './calendar-date.ts';

const NY = 'America/New_York';

describe('calendar dates in a business time zone (DECISIONS R4)', () => {
  it('reads the date in the zone', () => {
    const instant = new Date('2025-01-01T04:59:59Z');
    expect(calendarDateIn(instant, NY)).toEqual({ year: 2024, month: 12, day: 31 });
    expect(calendarDateIn(instant, 'UTC')).toEqual({ year: 2025, month: 1, day: 1 });
  });

  it.each([
    [{ year: 2025, month: 1, day: 1 }, NY, '2025-01-01T05:00:00.000Z'],
    [{ year: 2025, month: 7, day: 1 }, NY, '2025-07-01T04:00:00.000Z'],
    [{ year: 2025, month: 3, day: 9 }, NY, '2025-03-09T05:00:00.000Z'], // DST starts at 02:00
    [{ year: 2025, month: 11, day: 2 }, NY, '2025-11-02T04:00:00.000Z'], // DST ends
    [{ year: 2025, month: 9, day: 2 }, NY, '2025-09-02T04:00:00.000Z'],
    [{ year: 2025, month: 6, day: 1 }, 'Asia/Kolkata', '2025-05-31T18:30:00.000Z'],
    [{ year: 2025, month: 6, day: 1 }, 'UTC', '2025-06-01T00:00:00.000Z'],
  ])('start of %j in %s', (date, zone, iso) => {
    expect(startOfDayIn(date, zone).toISOString()).toBe(iso);
  });

  it('a zone whose DST starts at midnight begins the day at 01:00', () => {
    // Santiago moved clocks from 00:00 to 01:00 on 2024-09-08.
    const start = startOfDayIn({ year: 2024, month: 9, day: 8 }, 'America/Santiago');
    expect(calendarDateIn(start, 'America/Santiago')).toEqual({ year: 2024, month: 9, day: 8 });
    expect(calendarDateIn(new Date(start.getTime() - 1), 'America/Santiago').day).toBe(7);
  });

  it('time zone names', () => {
    expect(isValidTimeZone(NY)).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
  });

  it.each([
    [{ year: 2025, month: 1, day: 31 }, 1, { year: 2025, month: 2, day: 28 }],
    [{ year: 2024, month: 1, day: 31 }, 1, { year: 2024, month: 2, day: 29 }],
    [{ year: 2025, month: 12, day: 15 }, 1, { year: 2026, month: 1, day: 15 }],
    [{ year: 2025, month: 3, day: 31 }, -1, { year: 2025, month: 2, day: 28 }],
    [{ year: 2025, month: 1, day: 31 }, 13, { year: 2026, month: 2, day: 28 }],
  ])('addMonthsClamped(%j, %i)', (date, months, out) => {
    expect(addMonthsClamped(date, months)).toEqual(out);
  });

  it('days', () => {
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2025, 2)).toBe(28);
    expect(addDays({ year: 2025, month: 12, day: 30 }, 3)).toEqual({
      year: 2026,
      month: 1,
      day: 2,
    });
    expect(daysBetween({ year: 2025, month: 3, day: 1 }, { year: 2025, month: 3, day: 31 })).toBe(
      30,
    );
    expect(
      compareDates({ year: 2025, month: 3, day: 1 }, { year: 2025, month: 2, day: 28 }),
    ).toBeGreaterThan(0);
  });

  it('ISO text', () => {
    expect(toIsoDate({ year: 2025, month: 3, day: 7 })).toBe('2025-03-07');
    expect(parseIsoDate('2025-03-07')).toEqual({ year: 2025, month: 3, day: 7 });
    expect(parseIsoDate('2025-03-07T10:00:00Z')).toEqual({ year: 2025, month: 3, day: 7 });
    expect(parseIsoDate('2025-02-30')).toBeNull();
    expect(parseIsoDate('2025-13-01')).toBeNull();
    expect(parseIsoDate('03/07/2025')).toBeNull();
  });

  it("'MMM DD, YYYY' or N/A (000 §4)", () => {
    expect(formatCalendarDate({ year: 2026, month: 1, day: 5 })).toBe('Jan 05, 2026');
    expect(formatCalendarDate(null)).toBe('N/A');
    expect(formatBusinessDate(new Date('2025-01-01T03:00:00Z'), NY)).toBe('Dec 31, 2024');
    expect(formatBusinessDate(null, NY)).toBe('N/A');
    expect(formatBusinessDate(new Date(Number.NaN), NY)).toBe('N/A');
  });

  it('property: the start of a day reads back as that day, and one ms earlier as the day before', () => {
    const zones = [
      'America/New_York',
      'America/Los_Angeles',
      'Europe/London',
      'Australia/Lord_Howe',
      'UTC',
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: 2000, max: 2040 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 28 }),
        fc.constantFrom(...zones),
        (year, month, day, zone) => {
          const start = startOfDayIn({ year, month, day }, zone);
          expect(calendarDateIn(start, zone)).toEqual({ year, month, day });
          const before = calendarDateIn(new Date(start.getTime() - 1), zone);
          expect(daysBetween(before, { year, month, day })).toBe(1);
        },
      ),
    );
  });
});

describe('wallClockIn', () => {
  it.each([
    [
      '2026-03-15T15:04:05Z',
      'America/New_York',
      { year: 2026, month: 3, day: 15, hour: 11, minute: 4, second: 5 },
    ],
    [
      '2026-01-01T04:59:59Z',
      'America/New_York',
      { year: 2025, month: 12, day: 31, hour: 23, minute: 59, second: 59 },
    ],
    [
      '2026-01-01T00:00:00Z',
      'UTC',
      { year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0 },
    ],
  ])('%s in %s', (instant, zone, expected) => {
    expect(wallClockIn(new Date(instant), zone)).toEqual(expected);
  });
});
