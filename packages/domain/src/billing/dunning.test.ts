import { describe, expect, it } from 'vitest';
import { parseIsoDate, toIsoDate } from '../time/calendar-date.ts';
import {
  accountNextBillDate,
  cancellationTakesEffect,
  nextBillDateOf,
  nextScheduledRetry,
  scheduledAttempts,
  scheduledRetryAt,
  SCHEDULED_RENEWAL_ATTEMPTS,
} from './dunning.ts';

const d = (text: string) => parseIsoDate(text)!;

describe('dunning figures, one source each (issue 25 item 11)', () => {
  it.each([
    // A period still ahead: its end.
    ['2026-10-28', '2026-11-28', '2026-11-20', '2026-11-28'],
    // The bill date came and the renewal is unpaid: the bill date after it, not the past one.
    ['2026-10-28', '2026-11-28', '2026-12-01', '2026-12-28'],
    ['2026-10-28', '2026-11-28', '2026-11-28', '2026-12-28'],
    // Clamped as R4's calendar is: a 31st anchor keeps its day after February.
    ['2026-01-31', '2026-02-28', '2026-03-02', '2026-03-31'],
  ])('anchor %s, period end %s, today %s: next bill %s', (anchor, end, today, expected) => {
    expect(
      toIsoDate(nextBillDateOf({ cycleAnchor: d(anchor), currentPeriodEnd: d(end) }, d(today))),
    ).toBe(expected);
  });

  it('gives every screen the subscription’s next bill date, the stored one without a cycle', () => {
    const cycle = { cycleAnchor: d('2026-10-24'), currentPeriodEnd: d('2026-11-24') };
    const stored = d('2026-11-28');
    const shown = (accountStatus: string, withCycle: boolean) => {
      const date = accountNextBillDate(
        { accountStatus, cycle: withCycle ? cycle : null, storedNextBillDate: stored },
        d('2026-11-27'),
      );
      return date ? toIsoDate(date) : null;
    };
    // Validating payment since Nov 24: the bill after the unpaid one, not the stored date.
    expect(shown('validating payment', true)).toBe('2026-12-24');
    expect(shown('active', true)).toBe('2026-12-24');
    expect(shown('inactive', true)).toBe('2026-11-28');
    expect(shown('active', false)).toBe('2026-11-28');
  });

  it('says when a pending cancellation takes effect: the next bill date, or the end of a paid year after it (decision 058)', () => {
    const cycle = { cycleAnchor: d('2026-02-10'), currentPeriodEnd: d('2026-04-10') };
    const takes = (accountStatus: string, paidThrough: string | null, current = cycle) => {
      const date = cancellationTakesEffect(
        {
          accountStatus,
          cycle: current,
          storedNextBillDate: null,
          paidThrough: paidThrough ? d(paidThrough) : null,
        },
        d('2026-03-15'),
      );
      return date ? toIsoDate(date) : null;
    };
    // A year paid that begins on 2026-05-10: at its end, not at the next monthly bill date.
    expect(takes('pending cancel', '2027-05-09')).toBe('2027-05-10');
    // No paid year, or one that ended before the next bill date: the next bill date.
    expect(takes('pending cancel', null)).toBe('2026-04-10');
    expect(takes('pending cancel', '2026-02-09')).toBe('2026-04-10');
    // A year running: the account's next bill date is the year's end already.
    const inYear = { cycleAnchor: d('2026-02-10'), currentPeriodEnd: d('2027-04-10') };
    expect(takes('pending cancel', '2027-04-09', inYear)).toBe('2027-04-10');
    // Only a pending cancellation has a day it takes effect.
    expect(takes('active', '2027-05-09')).toBeNull();
  });

  it('counts R4’s scheduled attempts: the renewal’s own and three retries', () => {
    expect(SCHEDULED_RENEWAL_ATTEMPTS).toBe(4);
    expect(scheduledAttempts(0)).toEqual({ made: 0, left: 4 });
    expect(scheduledAttempts(1)).toEqual({ made: 1, left: 3 });
    expect(scheduledAttempts(3)).toEqual({ made: 3, left: 1 });
    expect(scheduledAttempts(4)).toEqual({ made: 4, left: 0 });
    expect(scheduledAttempts(9)).toEqual({ made: 4, left: 0 });
  });

  it('has a next scheduled retry only while validating payment with an attempt left', () => {
    const at = new Date('2026-12-02T15:00:00Z');
    expect(nextScheduledRetry('validating payment', 2, at)).toBe(at);
    expect(nextScheduledRetry('validating payment', 4, at)).toBeNull();
    expect(nextScheduledRetry('active', 0, at)).toBeNull();
    expect(nextScheduledRetry('inactive', 4, null)).toBeNull();
  });
});

describe('scheduledRetryAt (R4: 1, 3 and 5 days after the first failure)', () => {
  const since = new Date('2026-03-25T15:00:00Z');
  it('counts every retry from the first failure, not from the retry before it', () => {
    expect([1, 2, 3].map((failures) => scheduledRetryAt(since, failures)?.toISOString())).toEqual([
      '2026-03-26T15:00:00.000Z',
      '2026-03-28T15:00:00.000Z',
      '2026-03-30T15:00:00.000Z',
    ]);
  });
  it('has none after the last retry, nor before a failure', () => {
    expect(scheduledRetryAt(since, SCHEDULED_RENEWAL_ATTEMPTS)).toBeNull();
    expect(scheduledRetryAt(since, 0)).toBeNull();
  });
});
