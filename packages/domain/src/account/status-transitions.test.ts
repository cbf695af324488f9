import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_STATUS, ACCOUNT_STATUSES, type TAccountStatus } from './status.ts';
import {
  ACCOUNT_EVENTS,
  ACCOUNT_TRANSITIONS,
  BILLING_DUE_STATUSES,
  canTake,
  isBilled,
  isRenewing,
  isWaived,
  RENEWING_STATUSES,
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

describe('what the server asks the state machine (issue 26)', () => {
  it('names every status once, by the same string', () => {
    expect(Object.values(ACCOUNT_STATUS).sort()).toEqual([...ACCOUNT_STATUSES].sort());
  });

  it('lets only an active or validating-payment account cancel (R4)', () => {
    const cancellable = ACCOUNT_STATUSES.filter((from) => canTake(from, 'cancel'));
    expect(cancellable.sort()).toEqual(['active', 'validating payment']);
    expect(canTake('toString', 'cancel')).toBe(false);
    expect(canTake('', 'block')).toBe(false);
  });

  it('agrees with the table for every status and event', () => {
    fc.assert(
      fc.property(status, event, (from, on) => {
        expect(canTake(from, on)).toBe(nextAccountStatus(from, on) !== null);
      }),
    );
  });

  it('picks up at the bill date the billed accounts and the pending cancels, nothing else', () => {
    expect([...BILLING_DUE_STATUSES].sort()).toEqual(
      ACCOUNT_STATUSES.filter((from) => isBilled(from) || canTake(from, 'billDateReached')).sort(),
    );
  });

  it('counts every account but an inactive one as renewing, and waives only an active complimentary one', () => {
    expect(RENEWING_STATUSES).not.toContain('inactive');
    expect(ACCOUNT_STATUSES.filter(isRenewing)).toEqual([...RENEWING_STATUSES]);
    expect(isRenewing('inactive')).toBe(false);
    expect(ACCOUNT_STATUSES.filter((from) => isWaived(from, true))).toEqual(['active']);
    expect(isWaived('active', false)).toBe(false);
  });
});
