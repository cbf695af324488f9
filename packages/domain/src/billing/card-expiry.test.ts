import { describe, expect, it } from 'vitest';
import { addDays, type ICalendarDate } from '../time/calendar-date.ts';
import {
  cardLastValidDay,
  dueCardExpiryReminder,
  expiryMonthsToRemind,
  isChargedAfterCardExpiry,
} from './card-expiry.ts';

// A card '1226' is valid through Dec 31, 2026.
const LAST_DAY: ICalendarDate = { year: 2026, month: 12, day: 31 };
const daysBefore = (days: number) => addDays(LAST_DAY, -days);

describe('card expiry reminders (issue 27 item 12)', () => {
  it('a card is valid through the last day of its expiry month', () => {
    expect(cardLastValidDay('1226')).toEqual(LAST_DAY);
    expect(cardLastValidDay('02/28')).toEqual({ year: 2028, month: 2, day: 29 });
    expect(cardLastValidDay('1326')).toBeNull();
    expect(cardLastValidDay('')).toBeNull();
  });

  it('the 30-day reminder is due from 30 days before, not at 31', () => {
    expect(dueCardExpiryReminder('1226', daysBefore(31))).toBeNull();
    expect(dueCardExpiryReminder('1226', daysBefore(30))).toBe(30);
    expect(dueCardExpiryReminder('1226', daysBefore(29))).toBe(30);
  });

  it('the 7-day reminder is due from 7 days before, not at 8, until the last valid day', () => {
    expect(dueCardExpiryReminder('1226', daysBefore(8))).toBe(30);
    expect(dueCardExpiryReminder('1226', daysBefore(7))).toBe(7);
    expect(dueCardExpiryReminder('1226', daysBefore(0))).toBe(7);
    expect(dueCardExpiryReminder('1226', daysBefore(-1))).toBeNull();
  });

  it('the months the job looks at cover every card with a reminder due', () => {
    expect(expiryMonthsToRemind({ year: 2026, month: 12, day: 1 })).toEqual(['1226']);
    expect(expiryMonthsToRemind({ year: 2026, month: 12, day: 2 })).toEqual(['1226', '0127']);
    expect(expiryMonthsToRemind({ year: 2026, month: 1, day: 31 })).toEqual([
      '0126',
      '0226',
      '0326',
    ]);
    for (let offset = 0; offset < 120; offset += 1) {
      const today = addDays({ year: 2026, month: 1, day: 1 }, offset);
      const months = expiryMonthsToRemind(today);
      for (let ahead = 0; ahead <= 30; ahead += 1) {
        const day = addDays(today, ahead);
        const mmyy = `${String(day.month).padStart(2, '0')}${String(day.year % 100).padStart(2, '0')}`;
        if (dueCardExpiryReminder(mmyy, today) !== null) expect(months).toContain(mmyy);
      }
    }
  });

  it('only accounts charged after the card expires are reminded', () => {
    const billed = { status: 'active', complimentary: false, billed: true };
    expect(isChargedAfterCardExpiry(billed)).toBe(true);
    expect(isChargedAfterCardExpiry({ ...billed, status: 'validating payment' })).toBe(true);
    expect(isChargedAfterCardExpiry({ ...billed, complimentary: true })).toBe(false);
    expect(isChargedAfterCardExpiry({ ...billed, billed: false })).toBe(false);
    for (const status of ['inactive', 'pending cancel', 'blocked', 'pending reactivation'])
      expect(isChargedAfterCardExpiry({ ...billed, status })).toBe(false);
  });
});
