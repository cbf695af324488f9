/**
 * The console's overview over HTTP (DECISIONS R18, issue 29; docs/decisions/042): a known history
 * of four dealers over 14 months, made by the real sign-up, billing run, card update, cancellation,
 * subscription change, chargeback and reactivation at fixed clock times, and every figure checked
 * against values worked out by hand below. Then a property: the revenue of any range of months is
 * the sum of the ledger's payments, refunds and chargebacks dated in it. Runs on PGlite, and on
 * PostgreSQL with TEST_DATABASE_URL.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TOverview } from '@dealerpass/domain/overview/overview-views';
import { monthsBetween, revenueGroupOf } from '@dealerpass/domain/overview/figures';
import { isSubscriptionCode } from '@dealerpass/domain/catalogue';
import { billingPeriods, payments, refunds, subscriptions, users } from '../../src/db/schema.ts';
import { issueSandboxToken } from '../../src/sandboxes/payments/sandbox-tokens.ts';
import { cancelSubscription } from '../../src/services/billing/cancel-subscription.ts';
import { changeSubscription } from '../../src/services/billing/change-subscription.ts';
import { updatePaymentProfile } from '../../src/services/billing/payment-profile.ts';
import { reactivate } from '../../src/services/billing/reactivate.ts';
import { recordChargeback } from '../../src/services/billing/record-chargeback.ts';
import { runBilling } from '../../src/services/billing/run-billing.ts';
import { DECLINED_CARD, signedUpDealer, staffBrowser } from '../factories/admin-fixtures.ts';
import { parseCsv } from '../support/csv.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { staffSessionFor } from '../factories/staff-sign-in.ts';

let clock = new Date('2025-11-03T15:00:00Z');
let t: TestApp;
let staff: Record<'support' | 'billing' | 'admin', TestBrowser>;
const at = (instant: string) => {
  clock = new Date(instant);
};

const BILLING_ADDRESS = {
  billingCountry: 'US' as const,
  cardBrand: 'visa',
  cardLast4: '1111',
  creditCardExpiration: '1230',
  billingFirstName: 'Ann',
  billingLastName: 'Lyst',
  billingAddress1: '2 Bill St',
  billingAddress2: '',
  billingCity: 'Lansing',
  billingState: 'MI',
  billingZip: '48901',
};

async function approvedToken() {
  const { paymentToken } = await issueSandboxToken(
    t.app.db,
    { creditCardNumber: '4111111111111111', creditCardExpiration: '1230', creditCardCode: '123' },
    clock,
  );
  return paymentToken;
}

const run = async (instant: string) => {
  at(instant);
  await runBilling(t.app.deps.billing);
};

/** The user ids of the four dealers, by letter. */
const ids: Record<'A' | 'B' | 'C' | 'D', string> = { A: '', B: '', C: '', D: '' };

beforeAll(async () => {
  t = await buildTestApp({ now: () => clock });
  const browser = await t.browser();
  const signUp = async (instant: string) => {
    at(instant);
    return (await signedUpDealer(t, browser)).user.id;
  };
  const cancel = (userId: string, reason: string) =>
    cancelSubscription(t.app.deps.billing as never, userId, {
      cancellationReasonOptions: [reason],
      userProvidedCancelReason: 'Numbers in the test',
    } as never);

  // November 2025: A and B sign up (NADA, MMR, CF, AC: 70 + 65 + free extras + 3 fee = 138.00);
  // B cancels in the trial, its sign-up charge refunded.
  ids.A = await signUp('2025-11-03T15:00:00Z');
  ids.B = await signUp('2025-11-10T15:00:00Z');
  at('2025-11-12T15:00:00Z');
  await cancel(ids.B, 'too-expensive');
  await run('2025-12-03T15:00:00Z');

  // January 2026: A's renewal is declined (validating payment); a new card the next day pays it.
  const declined = await issueSandboxToken(
    t.app.db,
    { creditCardNumber: DECLINED_CARD, creditCardExpiration: '1230', creditCardCode: '123' },
    clock,
  );
  const profile = await t.app.payments.createCustomerProfile({
    accountId: ids.A,
    email: 'a@example.com',
    paymentToken: declined.paymentToken,
  });
  await t.app.db
    .update(subscriptions)
    .set({
      gatewayCustomerId: profile.customerProfileId,
      gatewayPaymentProfileId: profile.paymentProfileId,
    })
    .where(eq(subscriptions.userId, ids.A));
  await run('2026-01-03T15:00:00Z');
  at('2026-01-04T15:00:00Z');
  await updatePaymentProfile(t.app.deps.billing as never, ids.A, {
    requestKey: randomUUID(),
    paymentToken: await approvedToken(),
    ...BILLING_ADDRESS,
  });
  ids.C = await signUp('2026-01-05T15:00:00Z');

  // February: both renew; staff refund 50.00 of C's renewal on the 10th.
  await run('2026-02-03T15:00:00Z');
  await run('2026-02-05T15:00:00Z');
  const [cFebruary] = await t.app.db
    .select()
    .from(payments)
    .where(eq(payments.userId, ids.C))
    .orderBy(payments.activationDate)
    .offset(1);
  await t.app.db.insert(refunds).values({
    paymentId: cFebruary!.id,
    userId: ids.C,
    amountCents: 5000,
    status: 'succeeded',
    requestKey: randomUUID(),
    reason: 'goodwill',
    staffId: randomUUID(),
    createdAt: new Date('2026-02-10T15:00:00Z'),
    settledAt: new Date('2026-02-10T15:00:00Z'),
  });

  // March: A renews; C's February payment is charged back (138.00 − 50.00 = 88.00); D signs up
  // and adds KBB on the 20th: (203.00 − 138.00) × 21 of 31 days = 44.03.
  await run('2026-03-03T15:00:00Z');
  at('2026-03-06T15:00:00Z');
  await recordChargeback(t.app.db, { paymentId: cFebruary!.id, now: clock });
  ids.D = await signUp('2026-03-10T15:00:00Z');
  at('2026-03-20T15:00:00Z');
  await changeSubscription(t.app.deps.billing, ids.D, {
    codes: ['NADA', 'MMR', 'CF', 'AC', 'KBB'],
    idempotencyKey: randomUUID(),
    basedOn: { codes: ['NADA', 'MMR', 'CF', 'AC'], pendingRemovals: [] },
  });

  // April: both renew (D at 203.00); D cancels after its trial: pending cancel until May 10.
  await run('2026-04-03T15:00:00Z');
  await run('2026-04-10T15:00:00Z');
  at('2026-04-15T15:00:00Z');
  await cancel(ids.D, 'closing-business');
  await run('2026-05-03T15:00:00Z');
  await run('2026-05-10T15:00:00Z');
  await run('2026-06-03T15:00:00Z');

  // July: D comes back with a card (203.00 now, a new cycle on the 1st).
  at('2026-07-01T15:00:00Z');
  await reactivate(t.app.deps.billing as never, ids.D, {
    requestKey: randomUUID(),
    paymentToken: await approvedToken(),
    ...BILLING_ADDRESS,
  });
  for (const month of ['07', '08', '09', '10', '11', '12']) {
    if (month !== '07') await run(`2026-${month}-01T15:00:00Z`);
    await run(`2026-${month}-03T15:00:00Z`);
  }
  at('2026-12-20T15:00:00Z');
  // Staff sessions of the clock's day: the history ran on the test's clock.
  const signedIn = async (role: 'support' | 'billing' | 'admin') =>
    staffBrowser(await t.browser(), (await staffSessionFor(t, role, { now: clock })).cookie);
  staff = {
    support: await signedIn('support'),
    billing: await signedIn('billing'),
    admin: await signedIn('admin'),
  };
}, 240_000);
afterAll(() => t.close());

const overview = async (from: string, to: string, role: 'billing' | 'admin' = 'billing') => {
  const response = await staff[role].request({
    method: 'GET',
    url: `/api/admin/overview?from=${from}&to=${to}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: TOverview }>().data;
};

const MONTHS = monthsBetween('2025-11', '2026-12');
/** By hand, per month from November 2025: what the ledger took, gave back and had charged back. */
const A = 13_800;
const D_WITH_KBB = 20_300;
const EXPECTED_PAYMENTS = [
  2 * A, // A and B sign up
  A,
  2 * A, // A paid on the 4th after the decline; C signs up
  2 * A,
  A + A + 4403, // A; D signs up; D's prorated KBB
  A + D_WITH_KBB,
  A, // D became inactive on May 10 without a charge
  A,
  A + D_WITH_KBB, // D's reactivation
  A + D_WITH_KBB,
  A + D_WITH_KBB,
  A + D_WITH_KBB,
  A + D_WITH_KBB,
  A + D_WITH_KBB,
];
const EXPECTED_REFUNDS = [A, 0, 0, 5000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const EXPECTED_CHARGEBACKS = [0, 0, 0, 0, 8800, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const EXPECTED_MRR = [
  A, // B left in its trial
  A,
  2 * A, // C
  2 * A,
  A + D_WITH_KBB, // C charged back, D with KBB
  A + D_WITH_KBB, // D pending cancel still counts
  A,
  A,
  A + D_WITH_KBB,
  A + D_WITH_KBB,
  A + D_WITH_KBB,
  A + D_WITH_KBB,
  A + D_WITH_KBB,
  A + D_WITH_KBB, // December: now
];

describe('the overview of a known history (R18)', () => {
  it('answers every figure as worked out by hand', async () => {
    const data = await overview('2025-11', '2026-12');
    expect(data.period.months).toEqual(MONTHS);
    expect(data.months.map((month) => month.revenue.paymentsCents)).toEqual(EXPECTED_PAYMENTS);
    expect(data.months.map((month) => month.revenue.refundsCents)).toEqual(EXPECTED_REFUNDS);
    expect(data.months.map((month) => month.revenue.chargebacksCents)).toEqual(
      EXPECTED_CHARGEBACKS,
    );
    expect(data.months.map((month) => month.revenue.revenueCents)).toEqual(
      EXPECTED_PAYMENTS.map(
        (cents, index) => cents - EXPECTED_REFUNDS[index]! - EXPECTED_CHARGEBACKS[index]!,
      ),
    );
    expect(data.months.map((month) => month.mrrCents)).toEqual(EXPECTED_MRR);

    const byMonth = Object.fromEntries(data.months.map((month) => [month.month, month]));
    const counts = (key: 'newAccounts' | 'reactivated' | 'churned') =>
      Object.fromEntries(
        data.months.filter((month) => month[key] > 0).map((month) => [month.month, month[key]]),
      );
    expect(counts('newAccounts')).toEqual({ '2025-11': 2, '2026-01': 1, '2026-03': 1 });
    expect(counts('reactivated')).toEqual({ '2026-07': 1 });
    expect(counts('churned')).toEqual({ '2025-11': 1, '2026-03': 1, '2026-05': 1 });
    expect(byMonth['2025-11']!.churnByCause).toMatchObject({ trialCancellation: 1 });
    expect(byMonth['2025-11']!.churnByReason).toEqual({ 'too-expensive': 1 });
    expect(byMonth['2026-03']!.churnByCause).toMatchObject({ chargeback: 1, cancellation: 0 });
    expect(byMonth['2026-03']!.churnByReason).toEqual({});
    expect(byMonth['2026-05']!.churnByCause).toMatchObject({ cancellation: 1 });
    expect(byMonth['2026-05']!.churnByReason).toEqual({ 'closing-business': 1 });
    expect(byMonth['2026-01']).toMatchObject({
      dunningEntered: 1,
      dunningRecovered: 1,
      recoveryRatePercent: 100,
    });
    expect(data.months.filter((month) => month.dunningEntered > 0)).toHaveLength(1);

    // 18 payments of NADA + MMR (+ free extras, + fee) and 7 with KBB as well.
    const item = (code: string) => data.revenueByItem.find((row) => row.code === code)?.cents;
    expect(item('NADA')).toBe(25 * 7000);
    expect(item('MMR')).toBe(25 * 6500);
    expect(item('PLATFORM_FEE')).toBe(25 * 300);
    expect(item('CF')).toBeUndefined();
    const itemsTotal = data.revenueByItem.reduce((sum, row) => sum + row.cents, 0);
    expect(itemsTotal).toBe(EXPECTED_PAYMENTS.reduce((sum, cents) => sum + cents, 0));
    expect((item('KBB') ?? 0) + (item('ADJUSTMENT') ?? 0)).toBe(7 * 6500 + 4403);
    const group = (name: string) => data.revenueByGroup.find((row) => row.group === name)?.cents;
    expect(group('Pricing Guides')).toBe(25 * 7000 + (item('KBB') ?? 0));

    expect(data.now).toMatchObject({
      mrrCents: A + D_WITH_KBB,
      paying: [
        { status: 'active', count: 2 },
        { status: 'validating payment', count: 0 },
        { status: 'pending cancel', count: 0 },
      ],
      complimentary: 0,
      openDunningCents: 0,
      openDunningAccounts: 0,
      openInvoices: null,
    });
  });

  it('lists the accounts behind a point or bar', async () => {
    const list = async (query: string) => {
      const response = await staff.billing.request({
        method: 'GET',
        url: `/api/admin/overview/accounts?${query}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{
        data: { total: number; accounts: { userId: string; cents: number | null }[] };
      }>().data;
    };
    const mrrMarch = await list('figure=mrr&month=2026-03');
    expect(mrrMarch.accounts.map((row) => [row.userId, row.cents])).toEqual([
      [ids.D, D_WITH_KBB],
      [ids.A, A],
    ]);
    const churnedMay = await list('figure=churned&month=2026-05');
    expect(churnedMay.accounts.map((row) => row.userId)).toEqual([ids.D]);
    const byReason = await list('figure=churned&month=2025-11&detail=too-expensive');
    expect(byReason.accounts.map((row) => row.userId)).toEqual([ids.B]);
    const chargebacks = await list('figure=chargebacks&month=2026-03');
    expect(chargebacks.accounts.map((row) => [row.userId, row.cents])).toEqual([[ids.C, 8800]]);
    const refunded = await list('figure=refunds&month=2026-02');
    expect(refunded).toMatchObject({ total: 1, accounts: [{ userId: ids.C, cents: 5000 }] });
    const reactivated = await list('figure=reactivated&month=2026-07');
    expect(reactivated.accounts.map((row) => row.userId)).toEqual([ids.D]);
    const recovered = await list('figure=dunningRecovered&month=2026-01');
    expect(recovered.accounts.map((row) => row.userId)).toEqual([ids.A]);
    const kbb = await list('figure=item&month=2025-11&to=2026-12&detail=KBB');
    expect(kbb.accounts.map((row) => row.userId)).toEqual([ids.D]);
  });

  it('lists behind an item’s or a group’s bar the accounts and amounts of the ledger’s quotes (property)', async () => {
    // The ledger read directly: each payment's period's quote lines (free ones too), and its
    // platform fee when it is not zero, by the payment's business month.
    const lines = (
      await t.app.db
        .select({
          userId: payments.userId,
          date: payments.activationDate,
          quote: billingPeriods.quote,
        })
        .from(payments)
        .innerJoin(billingPeriods, eq(billingPeriods.id, payments.billingPeriodId))
    ).flatMap(({ userId, date, quote }) => {
      const q = quote as { lines: { code: string; cents: number }[]; platformFeeCents: number };
      return [
        ...q.lines.map((line) => ({ userId, month: date.slice(0, 7), ...line })),
        ...(q.platformFeeCents
          ? [{ userId, month: date.slice(0, 7), code: 'PLATFORM_FEE', cents: q.platformFeeCents }]
          : []),
      ];
    });
    const groupOf = (code: string) =>
      code === 'PLATFORM_FEE' || isSubscriptionCode(code) ? revenueGroupOf(code) : code;
    // The bars of revenue by item and group: an item, the platform fee, a group (a prorated
    // charge's line is no item: it is in the adjustments, which list no accounts).
    const details = [
      ...new Set(
        lines
          .filter((line) => line.code === 'PLATFORM_FEE' || isSubscriptionCode(line.code))
          .flatMap((line) => [line.code, groupOf(line.code)]),
      ),
      'APG',
      'Extras',
    ];
    expect(details).toEqual(expect.arrayContaining(['NADA', 'KBB', 'CF', 'PLATFORM_FEE']));
    expect(details).toEqual(expect.arrayContaining(['Pricing Guides', 'Market Reports']));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: MONTHS.length - 1 }),
        fc.integer({ min: 0, max: MONTHS.length - 1 }),
        fc.constantFrom(...details),
        async (first, second, detail) => {
          const from = MONTHS[Math.min(first, second)]!;
          const to = MONTHS[Math.max(first, second)]!;
          const expected = new Map<string, number>();
          for (const line of lines) {
            if (line.month < from || line.month > to) continue;
            if (line.code !== detail && groupOf(line.code) !== detail) continue;
            expected.set(line.userId, (expected.get(line.userId) ?? 0) + line.cents);
          }
          const response = await staff.billing.request({
            method: 'GET',
            url: `/api/admin/overview/accounts?figure=item&month=${from}&to=${to}&detail=${encodeURIComponent(detail)}`,
          });
          expect(response.statusCode, response.body).toBe(200);
          const { data } = response.json<{
            data: { total: number; accounts: { userId: string; cents: number | null }[] };
          }>();
          expect(data.total).toBe(expected.size);
          expect(Object.fromEntries(data.accounts.map((row) => [row.userId, row.cents]))).toEqual(
            Object.fromEntries(expected),
          );
          // The largest first.
          const cents = data.accounts.map((row) => row.cents!);
          expect(cents).toEqual([...cents].sort((a, b) => b - a));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('is for billing and admin: support gets 403', async () => {
    const answer = await staff.support.request({
      method: 'GET',
      url: '/api/admin/overview?from=2026-01&to=2026-12',
    });
    expect(answer.statusCode).toBe(403);
    await overview('2026-12', '2026-12', 'admin');
    const reversed = await staff.billing.request({
      method: 'GET',
      url: '/api/admin/overview?from=2026-12&to=2026-01',
    });
    expect(reversed.statusCode).toBe(400);
  });

  it('agrees with the finance export month by month, to the cent (R18: one definition)', async () => {
    const data = await overview('2025-11', '2026-12');
    for (const month of data.months) {
      const response = await staff.billing.request({
        method: 'GET',
        url: `/api/admin/finance/movements.csv?month=${month.month}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      const [header, ...rows] = parseCsv(response.body);
      const column = (name: string) => header!.indexOf(name);
      const exported = { payment: 0, refund: 0, chargeback: 0 } as Record<string, number>;
      for (const row of rows) {
        const [dollars, cents] = row[column('amount')]!.split('.');
        const amount = Number(dollars) * 100 + Number(cents);
        expect(row[column('direction')]).toBe(row[column('kind')] === 'payment' ? 'in' : 'out');
        exported[row[column('kind')]!]! += amount;
      }
      expect(exported, month.month).toEqual({
        payment: month.revenue.paymentsCents,
        refund: month.revenue.refundsCents,
        chargeback: month.revenue.chargebacksCents,
      });
    }
    // The history has every kind, so the agreement is not between zeros.
    expect(EXPECTED_REFUNDS.filter((cents) => cents > 0).length).toBeGreaterThan(1);
    expect(EXPECTED_CHARGEBACKS.some((cents) => cents > 0)).toBe(true);
  });

  it('has revenue over any range of months equal to the ledger’s movements dated in it (property)', async () => {
    const paid = await t.app.db.select().from(payments);
    const refunded = await t.app.db.select().from(refunds).where(eq(refunds.status, 'succeeded'));
    const [signedUp] = await t.app.db.select().from(users).where(eq(users.id, ids.B));
    expect(signedUp).toBeDefined();
    // The ledger read directly: business dates in New York (15:00 UTC is the same date there).
    const day = (instant: Date) => instant.toISOString().slice(0, 10);
    const movements = [
      ...paid.map((row) => ({ date: row.activationDate, cents: row.amountCents })),
      ...refunded.map((row) => ({ date: day(row.settledAt!), cents: -row.amountCents })),
      ...paid
        .filter((row) => row.status === 'refunded')
        .map((row) => ({
          date: day(row.refundedAt!),
          cents: -(row.refundClaimedCents ?? row.amountCents),
        })),
      ...paid
        .filter((row) => row.chargedBackAt)
        .map((row) => ({
          date: day(row.chargedBackAt!),
          cents: -(
            row.amountCents -
            refunded
              .filter((refund) => refund.paymentId === row.id)
              .reduce((sum, refund) => sum + refund.amountCents, 0)
          ),
        })),
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: MONTHS.length - 1 }),
        fc.integer({ min: 0, max: MONTHS.length - 1 }),
        async (first, second) => {
          const from = MONTHS[Math.min(first, second)]!;
          const to = MONTHS[Math.max(first, second)]!;
          const data = await overview(from, to);
          const revenue = data.months.reduce((sum, month) => sum + month.revenue.revenueCents, 0);
          const expected = movements
            .filter((row) => row.date.slice(0, 7) >= from && row.date.slice(0, 7) <= to)
            .reduce((sum, row) => sum + row.cents, 0);
          expect(revenue).toBe(expected);
        },
      ),
      { numRuns: 15 },
    );
  });
});
