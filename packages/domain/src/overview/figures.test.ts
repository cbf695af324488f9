import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FINANCE_MOVEMENT_KINDS } from '../admin/finance-export.ts';
import {
  classifyChange,
  grossRevenue,
  monthEndInstant,
  monthsBetween,
  mrrContributionCents,
  periodProblem,
  presetPeriod,
  recoveryRatePercent,
  revenueGroupOf,
  type IMoneyMovement,
} from './figures.ts';

const ZONE = 'America/New_York';

describe('R18: what an account adds to MRR', () => {
  it.each([
    ['active', false, 13_800, 13_800],
    ['validating payment', false, 13_800, 13_800],
    ['pending cancel', false, 13_800, 13_800],
    ['active', true, 13_800, 0],
    ['inactive', false, 13_800, 0],
    ['pending reactivation', false, 13_800, 0],
    ['blocked', false, 13_800, 0],
  ])('%s, complimentary %s: %i → %i', (status, complimentary, monthlyCents, expected) => {
    expect(mrrContributionCents({ status, complimentary, monthlyCents })).toBe(expected);
  });

  it('counts an annual period as its amount ÷ 12, half up to the cent (R14)', () => {
    // 12 × 13,800 × 90 % = 149,040 → 12,420 a month.
    const annual = { status: 'active', complimentary: false, monthlyCents: 13_800 };
    expect(mrrContributionCents({ ...annual, cadence: 'annual', annualCents: 149_040 })).toBe(
      12_420,
    );
    // 100,006 / 12 = 8,333.83 → 8,334; 100,002 / 12 = 8,333.5 → 8,334; 100,001 → 8,333.42 → 8,333.
    expect(mrrContributionCents({ ...annual, cadence: 'annual', annualCents: 100_006 })).toBe(8334);
    expect(mrrContributionCents({ ...annual, cadence: 'annual', annualCents: 100_002 })).toBe(8334);
    expect(mrrContributionCents({ ...annual, cadence: 'annual', annualCents: 100_001 })).toBe(8333);
  });
});

describe('R18: the movements of a status change', () => {
  it.each([
    [null, 'active', 'signUp', 'new', null],
    [null, 'inactive', 'signUp', null, null],
    ['inactive', 'pending reactivation', 'reactivationCharging', null, null],
    ['pending reactivation', 'active', 'reactivationSucceeded', 'reactivated', null],
    ['pending cancel', 'active', 'reactivate', null, null],
    ['active', 'inactive', 'cancelInTrial', 'churned', 'trialCancellation'],
    ['active', 'inactive', 'cancelUnbilled', 'churned', 'cancellation'],
    ['pending cancel', 'inactive', 'billDateReached', 'churned', 'cancellation'],
    ['validating payment', 'inactive', 'finalRetryFailed', 'churned', 'failedDunning'],
    ['active', 'inactive', 'chargeback', 'churned', 'chargeback'],
    ['pending reactivation', 'inactive', 'reactivationFailed', null, null],
    ['active', 'validating payment', 'renewalFailed', 'dunningEntered', null],
    ['validating payment', 'active', 'renewalSucceeded', 'dunningRecovered', null],
    ['validating payment', 'pending cancel', 'cancel', null, null],
    ['active', 'active', 'renewalSucceeded', null, null],
    ['active', 'blocked', 'block', null, null],
  ] as const)('%s → %s by %s: %s (%s)', (from, to, event, movement, cause) => {
    expect(classifyChange(from, to, event)).toEqual({ movement, cause });
  });
});

describe('R18: dunning recovery', () => {
  it('is the share of the accounts that entered, one decimal, or none', () => {
    expect(recoveryRatePercent(0, 0)).toBeNull();
    expect(recoveryRatePercent(3, 2)).toBe(66.7);
    expect(recoveryRatePercent(8, 1)).toBe(12.5);
    expect(recoveryRatePercent(4, 4)).toBe(100);
  });
});

describe('periods of months', () => {
  it('lists the months of a range across a year', () => {
    expect(monthsBetween('2025-11', '2026-02')).toEqual([
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
    ]);
  });

  it('offers this month and the last twelve', () => {
    const today = { year: 2026, month: 3, day: 14 };
    expect(presetPeriod('thisMonth', today)).toEqual({ from: '2026-03', to: '2026-03' });
    expect(presetPeriod('last12Months', today)).toEqual({ from: '2025-04', to: '2026-03' });
    expect(presetPeriod('last12Months', { year: 2026, month: 12, day: 1 })).toEqual({
      from: '2026-01',
      to: '2026-12',
    });
  });

  it('refuses a reversed or longer than two years range', () => {
    expect(periodProblem('2026-03', '2026-01')).not.toBeNull();
    expect(periodProblem('2024-01', '2026-01')).not.toBeNull();
    expect(periodProblem('2024-02', '2026-01')).toBeNull();
    expect(periodProblem('2026-13', '2026-14')).not.toBeNull();
  });

  it("takes a month's figures at the business midnight that starts the next month, or now", () => {
    const now = new Date('2026-03-10T12:00:00Z');
    // Midnight in New York: EST in January, EDT in April.
    expect(monthEndInstant('2025-12', ZONE, now).toISOString()).toBe('2026-01-01T05:00:00.000Z');
    expect(monthEndInstant('2026-03', ZONE, new Date('2026-05-01T00:00:00Z')).toISOString()).toBe(
      '2026-04-01T04:00:00.000Z',
    );
    expect(monthEndInstant('2026-03', ZONE, now)).toBe(now);
  });
});

describe('product groups', () => {
  it('puts a simulcast in its base item group and the fee apart', () => {
    expect(revenueGroupOf('NADA_S')).toBe('Pricing Guides');
    expect(revenueGroupOf('MMR')).toBe('Market Reports');
    expect(revenueGroupOf('CF_S')).toBe('Extras');
    expect(revenueGroupOf('PLATFORM_FEE')).toBe('Platform fee');
  });
});

const movement = fc.record({
  kind: fc.constantFrom(...FINANCE_MOVEMENT_KINDS),
  cents: fc.integer({ min: 1, max: 500_000 }),
  businessDate: fc
    .date({
      min: new Date('2025-01-01T00:00:00Z'),
      max: new Date('2026-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString().slice(0, 10)),
});

describe('R18: gross revenue (property)', () => {
  it('over any range is the payments minus the refunds and chargebacks dated in it, and adds up across a split', () => {
    fc.assert(
      fc.property(
        fc.array(movement, { maxLength: 60 }),
        fc.array(
          fc.date({
            min: new Date('2024-12-01T00:00:00Z'),
            max: new Date('2027-01-31T00:00:00Z'),
            noInvalidDate: true,
          }),
          { minLength: 3, maxLength: 3 },
        ),
        (movements, instants) => {
          const [from, middle, to] = instants
            .map((date) => date.toISOString().slice(0, 10))
            .sort() as [string, string, string];
          const inRange = movements.filter(
            (item) => item.businessDate >= from && item.businessDate <= to,
          );
          const sum = (kind: IMoneyMovement['kind']) =>
            inRange
              .filter((item) => item.kind === kind)
              .reduce((total, item) => total + item.cents, 0);
          const revenue = grossRevenue(movements, from, to);
          expect(revenue).toEqual({
            paymentsCents: sum('payment'),
            refundsCents: sum('refund'),
            chargebacksCents: sum('chargeback'),
            returnedChecksCents: sum('returned check'),
            revenueCents:
              sum('payment') - sum('refund') - sum('chargeback') - sum('returned check'),
          });
          const dayAfter = new Date(Date.parse(`${middle}T00:00:00Z`) + 86_400_000)
            .toISOString()
            .slice(0, 10);
          const split =
            grossRevenue(movements, from, middle).revenueCents +
            (dayAfter <= to ? grossRevenue(movements, dayAfter, to).revenueCents : 0);
          expect(split).toBe(revenue.revenueCents);
        },
      ),
    );
  });
});
