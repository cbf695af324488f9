/**
 * Property-based tests of the billing run (issue 5, DECISIONS R4): random sequences of clock
 * moves, billing runs (alone, crashed between charge and record, or two at once interleaved by
 * fast-check's scheduler), cancellations, REACTIVATE during pending cancel and card swaps. After
 * every step:
 * - never two successful charges for one account and period (payments, and at the gateway);
 * - never a charge for a period starting on or after a cancellation took effect;
 * - status changes only along the allowed edges, each by its allowed actor, in one chain that
 *   ends at the account's current status;
 * - subscription changes (R10) in any order with the rest: a change's prorated charge approved
 *   once, and no bill from a removal's date on charges the removed item;
 * - the balance (GET /api/users/current's currentBalance) is what the account owes, worked out
 *   from what happened rather than from the ledger: the renewals billed (paid, or declined at
 *   least once), the reactivations' own charges and the chargeback fees, minus what was paid and
 *   the credits it started with (issue 14). Further steps for it: a new card through the API
 *   (its immediate retry), REACTIVATE of an inactive account, chargebacks, cancellation while
 *   validating payment.
 */
import fc from 'fast-check';
import { eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { PaymentGateway } from '../../src/adapters/payments/payment-gateway.ts';
import { issueSandboxToken } from '../../src/sandboxes/payments/sandbox-tokens.ts';
import { accountEvents, payments, subscriptions, users } from '../../src/db/schema.ts';
import { storePaymentProfile } from '../../src/services/billing/payment-profile.ts';
import { reactivate as reactivateInactive } from '../../src/services/billing/reactivate.ts';
import { recordChargeback } from '../../src/services/billing/record-chargeback.ts';
import { getUserRow } from '../../src/services/users/get-user-row.ts';
import { businessToday, serializeUser } from '../../src/services/users/serialize-user.ts';
import { changeAccountStatus } from '../../src/services/billing/ledger/change-account-status.ts';
import {
  CHARGE_LEASE_MS,
  runBilling,
  type BillingDeps,
} from '../../src/services/billing/run-billing.ts';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { changeSubscription } from '../../src/services/billing/change-subscription.ts';
import { undoPendingRemoval } from '../../src/services/billing/changes/pending-removals.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { subscribeWithCard } from '../factories/subscriber-factory.ts';
import { addOpeningBalance, createAccount } from '../factories/sign-in.ts';

const DAY = 86_400_000;
const TIME_ZONE = 'America/New_York';
const APPROVED = '4111111111111111';
const DECLINED = '4000000000000002';
const ACCOUNTS = 2;

/** Every status change the billing run and the cancel/REACTIVATE API may make, and by whom. */
const ALLOWED_EDGES = new Set([
  'active→pending cancel by user',
  'pending cancel→active by user',
  'pending cancel→inactive by billing-run',
  'active→validating payment by billing-run',
  'validating payment→active by billing-run',
  'validating payment→inactive by billing-run',
  'validating payment→pending cancel by user',
  'inactive→pending reactivation by user',
  'pending reactivation→active by user',
  'pending reactivation→inactive by user',
  'active→inactive by gateway',
  'pending cancel→inactive by gateway',
  'validating payment→inactive by gateway',
]);

type Op =
  | { kind: 'advance'; days: number; hours: number }
  | { kind: 'run' }
  | { kind: 'concurrent'; batchA: number; batchB: number }
  | { kind: 'crash' }
  | { kind: 'cancel'; who: number }
  | { kind: 'reactivate'; who: number }
  | { kind: 'card'; who: number; approve: boolean }
  | { kind: 'newCard'; who: number; approve: boolean }
  | { kind: 'reactivateInactive'; who: number; approve: boolean }
  | { kind: 'chargeback'; who: number }
  | { kind: 'change'; who: number; code: TSubscriptionCode }
  | { kind: 'undo'; who: number };

/** What a change op toggles (R10): paid items, a simulcast (needs its base), an extra. */
const CHANGE_CODES: readonly TSubscriptionCode[] = ['KBB', 'MMR', 'NADA', 'NADA_S', 'CF'];

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      days: fc.integer({ min: 0, max: 35 }),
      hours: fc.integer({ min: 0, max: 23 }),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ kind: fc.constant('run' as const) }), weight: 3 },
  {
    arbitrary: fc.record({
      kind: fc.constant('concurrent' as const),
      batchA: fc.integer({ min: 1, max: 3 }),
      batchB: fc.integer({ min: 1, max: 3 }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('crash' as const) }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('cancel' as const), who: fc.nat(ACCOUNTS - 1) }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('reactivate' as const), who: fc.nat(ACCOUNTS - 1) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('card' as const),
      who: fc.nat(ACCOUNTS - 1),
      approve: fc.boolean(),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('newCard' as const),
      who: fc.nat(ACCOUNTS - 1),
      approve: fc.boolean(),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('reactivateInactive' as const),
      who: fc.nat(ACCOUNTS - 1),
      approve: fc.boolean(),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('chargeback' as const), who: fc.nat(ACCOUNTS - 1) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('change' as const),
      who: fc.nat(ACCOUNTS - 1),
      code: fc.constantFrom(...CHANGE_CODES),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('undo' as const), who: fc.nat(ACCOUNTS - 1) }),
    weight: 1,
  },
);

const BILLING_ADDRESS = {
  billingFirstName: 'Casey',
  billingLastName: 'Dealer',
  billingCountry: 'US' as const,
  billingAddress1: '1 Main St',
  billingAddress2: '',
  billingCity: 'Detroit',
  billingState: 'MI',
  billingZip: '48201',
};

describe('billing run properties (fast-check)', () => {
  let t: TestApp;
  // One clock for the whole file, only ever moving forward, so earlier runs' accounts stay sane.
  const START = new Date('2026-03-15T15:00:00Z');
  let now = START;
  let counter = 0;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => now });
  });
  afterAll(() => t.close());

  const deps = (gateway: PaymentGateway = t.app.payments): BillingDeps => ({
    db: t.app.db,
    payments: gateway,
    now: () => now,
    timeZone: TIME_ZONE,
    company: { name: 'DealerPass', supportPhone: '1-800-555-0199' },
    mailKind: 'mailbox',
    prices: t.app.prices,
    log: { warn: () => {} },
  });

  async function tokenFor(card: string) {
    return issueSandboxToken(
      t.app.db,
      { creditCardNumber: card, creditCardExpiration: '1239', creditCardCode: '123' },
      now,
    );
  }

  /** An active subscriber due in `dueInDays`, its card at the sandbox gateway. */
  async function subscriber(
    card: string,
    dueInDays: number,
    openingCents: number,
  ): Promise<string> {
    counter += 1;
    const email = `property${counter}@example.com`;
    const { user } = await createAccount(t, {
      email,
      accountStatus: 'active',
      withIdentity: false,
    });
    const due = calendarDateIn(new Date(now.getTime() + dueInDays * DAY), TIME_ZONE);
    const start = calendarDateIn(new Date(now.getTime() + (dueInDays - 30) * DAY), TIME_ZONE);
    await subscribeWithCard(t, {
      userId: user.id,
      email,
      codes: ['NADA', 'MMR'],
      cycleAnchor: toIsoDate({ ...start, day: due.day > 28 ? 28 : start.day }),
      currentPeriodStart: toIsoDate(start),
      currentPeriodEnd: toIsoDate(due),
      now,
      card,
      expiration: '1239',
    });
    await t.app.db
      .update(users)
      .set({ nextBillDate: toIsoDate(due) })
      .where(eq(users.id, user.id));
    if (openingCents !== 0) await addOpeningBalance(t, user.id, openingCents);
    openings.set(user.id, openingCents);
    return user.id;
  }

  const statusOf = async (userId: string) =>
    (await t.app.db.select().from(users).where(eq(users.id, userId)))[0]!.accountStatus;
  const subscriptionOf = async (userId: string) =>
    (await t.app.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0]!;

  /** PATCH /api/users/cancel after the trial, as the API does it: pending cancel (R4). */
  async function cancel(userId: string): Promise<string | null> {
    const status = await statusOf(userId);
    if (status !== 'active' && status !== 'validating payment') return null;
    const boundary = (await subscriptionOf(userId)).currentPeriodEnd;
    await t.app.db.transaction(async (tx) => {
      await changeAccountStatus(tx, {
        userId,
        from: status,
        event: 'cancel',
        note: 'cancel requested',
        actor: 'user',
        now,
      });
      await tx
        .update(subscriptions)
        .set({ cancelRequestedAt: now, nextRetryAt: null, updatedAt: now })
        .where(eq(subscriptions.userId, userId));
    });
    return boundary;
  }

  /** REACTIVATE during pending cancel: active again, no charge (R4). */
  async function reactivate(userId: string): Promise<boolean> {
    if ((await statusOf(userId)) !== 'pending cancel') return false;
    await t.app.db.transaction(async (tx) => {
      await changeAccountStatus(tx, {
        userId,
        from: 'pending cancel',
        event: 'reactivate',
        note: 'reactivated',
        actor: 'user',
        now,
      });
      await tx
        .update(subscriptions)
        .set({ cancelRequestedAt: null, updatedAt: now })
        .where(eq(subscriptions.userId, userId));
    });
    return true;
  }

  /** PUT /api/users/paymentProfile: the new card replaces the old; validating payment retries at once. */
  async function swapCard(userId: string, card: string) {
    const subscription = await subscriptionOf(userId);
    const token = await tokenFor(card);
    const profile = await t.app.payments.replacePaymentProfile({
      customerProfileId: subscription.gatewayCustomerId!,
      paymentToken: token.paymentToken,
    });
    const status = await statusOf(userId);
    await t.app.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ cardBrand: profile.card.brand, cardLast4: profile.card.last4 })
        .where(eq(users.id, userId));
      await tx
        .update(subscriptions)
        .set({
          gatewayPaymentProfileId: profile.paymentProfileId,
          ...(status === 'validating payment' ? { nextRetryAt: now } : {}),
          updatedAt: now,
        })
        .where(eq(subscriptions.userId, userId));
    });
  }

  /** PUT /api/users/paymentProfile itself: a validating-payment account's renewal is retried at once. */
  async function newCard(userId: string, card: string) {
    await storePaymentProfile(
      deps(),
      userId,
      { paymentToken: (await tokenFor(card)).paymentToken, ...BILLING_ADDRESS },
      { retryDueRenewal: true },
    );
  }

  /** PUT /api/users/reactivate of an inactive account: its balance is charged with the month. */
  async function reactivateWithCard(userId: string, card: string): Promise<boolean> {
    if ((await statusOf(userId)) !== 'inactive') return false;
    await reactivateInactive(deps(), userId, {
      paymentToken: (await tokenFor(card)).paymentToken,
      ...BILLING_ADDRESS,
      requestKey: crypto.randomUUID(),
    }).catch((error: unknown) => {
      if (!(error instanceof Error) || !('code' in error) || error.code !== 'REACTIVATION_FAILED')
        throw error;
    });
    return (await statusOf(userId)) === 'active';
  }

  /** A chargeback of the account's latest payment (R4: the fee, and inactive). */
  async function chargeback(userId: string) {
    const [latest] = await t.app.db
      .select()
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(sql`${payments.createdAt} desc`)
      .limit(1);
    if (latest) await recordChargeback(t.app.db, { paymentId: latest.id, now });
  }

  /**
   * What the account owes, from its periods, payments and chargebacks (not from the balance's
   * own entries): renewals billed, paid or declined at least once; a paid reactivation's own
   * charge (its amount without the balance it carried); a charged-back period's charge (the
   * period is no longer billed, decision 034, but its charge and payment stay); 25 dollars per
   * chargeback; less every payment and the opening credit.
   */
  async function owedCents(userId: string): Promise<number> {
    const [row] = (await rowsOf(sql`
      select
        coalesce((select sum(bp.amount_cents - coalesce((
            select sum((line->>'cents')::int) from jsonb_array_elements(bp.quote->'lines') line
            where line->>'code' = 'BALANCE'), 0))
          from billing_periods bp
          where bp.user_id = ${userId} and (
            (bp.kind = 'renewal' and (bp.status in ('paid', 'failed') or bp.attempt > 1))
            or (bp.kind in ('reactivation', 'change') and bp.status = 'paid')
            or exists (select 1 from payments p
                       where p.billing_period_id = bp.id and p.charged_back_at is not null))), 0)
        + 2500 * (select count(*) from account_events
                  where user_id = ${userId} and event = 'chargeback')
        - coalesce((select sum(amount_cents) from payments where user_id = ${userId}), 0)
        as owed`)) as { owed: number | string }[];
    return Number(row!.owed) + (openings.get(userId) ?? 0);
  }

  /** The invariants, over these accounts; `boundaries`: period ends at cancellation. */
  async function checkInvariants(userIds: string[], boundaries: Map<string, string>) {
    // 1. At most one succeeded payment per account and period...
    const doublePayments = await rowsOf(sql`
      select p.user_id, bp.period_start, count(*)::int as n
      from payments p join billing_periods bp on bp.id = p.billing_period_id
      where p.status = 'succeeded' and p.user_id in ${userIds} and bp.kind <> 'change'
      group by p.user_id, bp.period_start having count(*) > 1`);
    expect(doublePayments).toEqual([]);
    // A change's prorated charge (R10) is approved at most once at the gateway, under its key.
    const doubleChangeCharges = await rowsOf(sql`
      select idempotency_key, count(*)::int as n from sandbox_gateway_transactions
      where kind = 'charge' and status = 'approved' and idempotency_key like 'change:%'
      group by 1 having count(*) > 1`);
    expect(doubleChangeCharges).toEqual([]);
    // ...and at most one approved charge at the gateway, whatever attempt it was.
    const doubleCharges = await rowsOf(sql`
      select split_part(idempotency_key, ':', 2) as user_id,
             split_part(idempotency_key, ':', 3) as period_start, count(*)::int as n
      from sandbox_gateway_transactions
      where kind = 'charge' and status = 'approved' and idempotency_key like 'renewal:%'
        and split_part(idempotency_key, ':', 2) in ${userIds}
      group by 1, 2 having count(*) > 1`);
    expect(doubleCharges).toEqual([]);

    for (const userId of userIds) {
      // 2. No charge for a period starting on or after the cancellation's effect.
      const boundary = boundaries.get(userId);
      if (boundary !== undefined) {
        const late = await rowsOf(sql`
          select bp.period_start from payments p
          join billing_periods bp on bp.id = p.billing_period_id
          where p.user_id = ${userId} and bp.period_start >= ${boundary}`);
        expect(late).toEqual([]);
        const lateCharges = await rowsOf(sql`
          select idempotency_key from sandbox_gateway_transactions
          where kind = 'charge' and status = 'approved'
            and split_part(idempotency_key, ':', 2) = ${userId}
            and split_part(idempotency_key, ':', 3) >= ${boundary}`);
        expect(lateCharges).toEqual([]);
      }
      // 3. Status changes along allowed edges, one unbroken chain ending at the current status.
      // Events of one instant have no order of their own: the chain decides among them.
      const chain = chains.get(userId) ?? { current: 'active', seen: new Set<string>() };
      chains.set(userId, chain);
      const fresh = (
        await t.app.db
          .select()
          .from(accountEvents)
          .where(eq(accountEvents.userId, userId))
          .orderBy(accountEvents.at)
      )
        // A chargeback's own record changes no status (its status change is a second event).
        .filter((event) => !chain.seen.has(event.id) && event.toStatus !== null);
      while (fresh.length > 0) {
        const index = fresh.findIndex((event) => event.fromStatus === chain.current);
        expect(
          index,
          `no event continues from ${chain.current}: ${JSON.stringify(fresh)}`,
        ).toBeGreaterThanOrEqual(0);
        const [event] = fresh.splice(index, 1);
        expect(`${event!.fromStatus}→${event!.toStatus} by ${event!.actor}`).toSatisfy(
          (edge: string) => ALLOWED_EDGES.has(edge),
        );
        chain.seen.add(event!.id);
        chain.current = event!.toStatus!;
      }
      expect(await statusOf(userId)).toBe(chain.current);

      // 5. R10: no bill for a period from a removal's date on charges the removed item, unless a
      // later change added it back (then only periods billed before that).
      for (const record of removals.get(userId) ?? []) {
        const charged = await rowsOf(sql`
          select period_start::text as start from billing_periods
          where user_id = ${userId} and kind in ('renewal', 'reactivation')
            and period_start >= ${record.from}
            and ${record.until === null ? sql`true` : sql`created_at < ${record.until}`}
            and exists (select 1 from jsonb_array_elements(quote->'lines') line
                        where line->>'code' = ${record.code})`);
        expect(charged, `${record.code} removed from ${record.from}`).toEqual([]);
      }

      // 4. The balance is what is owed, and the API shows it in dollars.
      const owed = await owedCents(userId);
      const row = await getUserRow(t.app.db, userId);
      expect(row.balanceCents).toBe(owed);
      expect(serializeUser(row, businessToday(t.app)).currentBalance).toBe(owed / 100);
    }
  }

  const rowsOf = async (query: SQL) =>
    ((await t.app.db.execute(query)) as unknown as { rows: unknown[] }).rows;

  const chains = new Map<string, { current: string; seen: Set<string> }>();
  /** The removals a change made (R10): the code, its bill date, and when it was added back. */
  const removals = new Map<string, { code: string; from: string; until: Date | null }[]>();

  /** A change through the service, as POST /api/users/subscriptions/change makes it: toggles one code. */
  async function changeOne(userId: string, code: TSubscriptionCode) {
    const before = await subscriptionOf(userId);
    const target = before.codes.filter((held) => !before.pendingRemovals.includes(held));
    const codes = target.includes(code)
      ? target.filter((held) => held !== code && held !== `${code}_S`)
      : [...target, code];
    try {
      const result = await changeSubscription(deps(), userId, {
        codes,
        idempotencyKey: crypto.randomUUID(),
        basedOn: { codes: before.codes, pendingRemovals: before.pendingRemovals },
      });
      const records = removals.get(userId) ?? [];
      const effective = (record: { from: string }) => record.from <= before.currentPeriodStart;
      const kept = records.filter((record) => {
        if (record.until !== null || effective(record)) return true;
        // A pending removal the change no longer asks for was undone.
        return result.removed.includes(record.code as TSubscriptionCode);
      });
      for (const record of kept) {
        if (record.until === null && result.added.includes(record.code as TSubscriptionCode)) {
          record.until = new Date(now.getTime() + 1);
        }
      }
      for (const removed of result.removed) {
        const open = kept.some(
          (record) => record.code === removed && record.until === null && !effective(record),
        );
        if (!open) kept.push({ code: removed, from: result.nextBillDate, until: null });
      }
      removals.set(userId, kept);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (!['CHANGE_NOT_ALLOWED', 'CHANGE_DECLINED', 'VALIDATION_FAILED'].includes(code ?? '')) {
        throw error;
      }
    }
  }

  /** Undo of the first pending removal (the Subscriptions page's Undo). */
  async function undoOne(userId: string) {
    const before = await subscriptionOf(userId);
    const code = before.pendingRemovals[0] as TSubscriptionCode | undefined;
    if (!code) return;
    try {
      await undoPendingRemoval(deps(), userId, code);
    } catch (error) {
      if ((error as { code?: string }).code !== 'CHANGE_NOT_ALLOWED') throw error;
      return;
    }
    const after = await subscriptionOf(userId);
    removals.set(
      userId,
      (removals.get(userId) ?? []).filter(
        (record) =>
          record.until !== null ||
          record.from <= before.currentPeriodStart ||
          after.pendingRemovals.includes(record.code),
      ),
    );
  }
  const openings = new Map<string, number>();

  async function runConcurrently(s: fc.Scheduler, batchA: number, batchB: number) {
    const real = t.app.payments;
    const gateway: PaymentGateway = {
      ...real,
      charge: s.scheduleFunction((input: Parameters<PaymentGateway['charge']>[0]) =>
        real.charge(input),
      ),
    };
    const both = Promise.all([
      runBilling(deps(gateway), { batchSize: batchA }),
      runBilling(deps(gateway), { batchSize: batchB }),
    ]);
    await s.waitFor(both);
  }

  async function crashAndRerun() {
    const real = t.app.payments;
    const dying: PaymentGateway = {
      ...real,
      charge: async (input) => {
        await real.charge(input);
        throw new Error('process killed after the charge');
      },
    };
    await runBilling(deps(dying)).catch((error: unknown) => {
      if (!(error instanceof Error) || !error.message.includes('process killed')) throw error;
    });
    // The lease runs out; the rerun with the real gateway finishes what the crash left.
    now = new Date(now.getTime() + CHARGE_LEASE_MS + 1000);
    await runBilling(deps());
  }

  it('never charges twice per period, never after a cancellation took effect, moves status only along allowed edges, and keeps the balance at what is owed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            approve: fc.boolean(),
            dueInDays: fc.integer({ min: 0, max: 5 }),
            // A credit (negative) or an old debt the account starts with, if any.
            openingCents: fc.oneof(fc.constant(0), fc.integer({ min: -30_000, max: 30_000 })),
          }),
          {
            minLength: ACCOUNTS,
            maxLength: ACCOUNTS,
          },
        ),
        fc.array(opArb, { minLength: 1, maxLength: 12 }),
        fc.scheduler(),
        // Where the sequence starts: any day and hour over ten years (month lengths, leap days,
        // daylight-saving changes), part of the input so a counterexample replays exactly.
        fc.integer({ min: 0, max: 10 * 365 * 24 }),
        async (accounts, ops, s, startHours) => {
          now = new Date(START.getTime() + startHours * 3_600_000);
          const userIds: string[] = [];
          for (const account of accounts) {
            userIds.push(
              await subscriber(
                account.approve ? APPROVED : DECLINED,
                account.dueInDays,
                account.openingCents,
              ),
            );
          }
          // Cancellation boundaries of the accounts whose cancellation stands.
          const boundaries = new Map<string, string>();
          for (const op of ops) {
            switch (op.kind) {
              case 'advance':
                now = new Date(now.getTime() + op.days * DAY + op.hours * 3_600_000);
                break;
              case 'run':
                await runBilling(deps());
                break;
              case 'concurrent':
                await runConcurrently(s, op.batchA, op.batchB);
                break;
              case 'crash':
                await crashAndRerun();
                break;
              case 'cancel': {
                const userId = userIds[op.who]!;
                const boundary = await cancel(userId);
                if (boundary !== null) boundaries.set(userId, boundary);
                break;
              }
              case 'reactivate': {
                const userId = userIds[op.who]!;
                if (await reactivate(userId)) boundaries.delete(userId);
                break;
              }
              case 'card':
                await swapCard(userIds[op.who]!, op.approve ? APPROVED : DECLINED);
                break;
              case 'newCard':
                await newCard(userIds[op.who]!, op.approve ? APPROVED : DECLINED);
                break;
              case 'reactivateInactive': {
                const userId = userIds[op.who]!;
                if (await reactivateWithCard(userId, op.approve ? APPROVED : DECLINED)) {
                  boundaries.delete(userId);
                }
                break;
              }
              case 'chargeback':
                await chargeback(userIds[op.who]!);
                break;
              case 'change':
                await changeOne(userIds[op.who]!, op.code);
                break;
              case 'undo':
                await undoOne(userIds[op.who]!);
                break;
            }
            await checkInvariants(userIds, boundaries);
          }
          // A cancelled account whose period has ended is inactive after one more run.
          now = new Date(now.getTime() + 40 * DAY);
          await runBilling(deps());
          await checkInvariants(userIds, boundaries);
          for (const userId of boundaries.keys()) expect(await statusOf(userId)).toBe('inactive');
        },
      ),
      { numRuns: 30 },
    );
    // Thirty sequences of up to twelve steps, each checked against the database: on a shared
    // machine this takes more than the default 30 seconds.
  }, 180_000);
});
