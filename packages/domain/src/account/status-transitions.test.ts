import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_STATUSES, type TAccountStatus } from './status.ts';
import {
  ACCOUNT_EVENTS,
  ACCOUNT_TRANSITIONS,
  isBilled,
  nextAccountStatus,
  renewalOutcomeEvent,
  unblockEventFor,
} from './status-transitions.ts';

const status = fc.constantFrom(...ACCOUNT_STATUSES);
const event = fc.constantFrom(...ACCOUNT_EVENTS);
const outcome = fc.constantFrom('succeeded' as const, 'failed' as const);

describe('the account state machine (issue 15)', () => {
  it('answers every status and event from its table, with a known status or null', () => {
    fc.assert(
      fc.property(status, event, (from, on) => {
        const next = nextAccountStatus(from, on);
        expect(next).toBe(
          Object.hasOwn(ACCOUNT_TRANSITIONS[on], from) ? ACCOUNT_TRANSITIONS[on][from] : null,
        );
        if (next !== null) expect(ACCOUNT_STATUSES).toContain(next);
      }),
    );
  });

  it('lists only known statuses in its table', () => {
    for (const on of ACCOUNT_EVENTS) {
      for (const [from, to] of Object.entries(ACCOUNT_TRANSITIONS[on])) {
        expect(ACCOUNT_STATUSES, `${on}: ${from}`).toContain(from);
        expect(ACCOUNT_STATUSES, `${on}: ${to}`).toContain(to);
      }
    }
  });

  it('gives a renewal charge an answer that applies to every status but blocked (never charged)', () => {
    fc.assert(
      fc.property(status, outcome, (from, result) => {
        const on = renewalOutcomeEvent(from, result);
        const next = nextAccountStatus(from, on);
        if (from === 'blocked') expect(next).toBeNull();
        else expect(next).toBe(result === 'succeeded' ? 'active' : 'validating payment');
        // The plain outcome while billed; the after-a-change one otherwise.
        expect(on.endsWith('AfterStatusChange')).toBe(!isBilled(from));
      }),
    );
  });

  it('refuses a renewal answer for a status it does not know', () => {
    fc.assert(
      fc.property(
        fc.string().filter((text) => !(ACCOUNT_STATUSES as readonly string[]).includes(text)),
        outcome,
        (text, result) => {
          const on = renewalOutcomeEvent(text, result);
          expect(nextAccountStatus(text as TAccountStatus, on)).toBeNull();
        },
      ),
    );
  });

  it('reaches every status from a new account (active) and can leave every status', () => {
    const reached = new Set<TAccountStatus>(['active']);
    for (let grew = true; grew;) {
      grew = false;
      for (const from of [...reached]) {
        for (const on of ACCOUNT_EVENTS) {
          const next = nextAccountStatus(from, on);
          if (next && !reached.has(next)) {
            reached.add(next);
            grew = true;
          }
        }
      }
    }
    expect([...reached].sort()).toEqual([...ACCOUNT_STATUSES].sort());
    for (const from of ACCOUNT_STATUSES) {
      expect(
        ACCOUNT_EVENTS.some((on) => {
          const next = nextAccountStatus(from, on);
          return next !== null && next !== from;
        }),
        from,
      ).toBe(true);
    }
  });

  it('lifts a block back to the standing the account had when blocked (R12)', () => {
    const cases: [string | null, string][] = [
      ['active', 'active'],
      ['inactive', 'inactive'],
      ['pending reactivation', 'inactive'],
      ['pending cancel', 'pending cancel'],
      ['validating payment', 'validating payment'],
      [null, 'active'],
    ];
    for (const [before, after] of cases) {
      expect(nextAccountStatus('blocked', unblockEventFor(before))).toBe(after);
    }
  });
});
