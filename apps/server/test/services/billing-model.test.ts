/**
 * A model-based test of one account's money under two kinds of people at once (issue 24): fast-check's
 * commands interleave the dealer's writes (a new card, removing the card, cancelling, reactivating
 * an inactive account), billing staff's actions (refund, chargeback, "Retry renewal now", credit,
 * charge) and the billing run, at arbitrary clock times (same-day sequences included), one at a
 * time or two at once. Everything goes through the HTTP API as the browsers send it, so the
 * routes' locks, refusals and OpenAPI descriptions are what is tested.
 *
 * After every command:
 * - no answer is a 5xx (and each matches its OpenAPI description: the test app checks that);
 * - the balance is what the account owes, worked out from what happened, not from the ledger;
 * - the gateway agrees with the ledger: every approved charge is one payment of the same amount and
 *   every payment one approved charge; what the gateway refunded of a charge is what our refunds
 *   say, and never more than the charge (R12);
 * - a chargeback covers at most what was not refunded, and nothing is refunded after it (R15);
 * - at most one approved charge per renewal period;
 * - the status moved only along the domain's state machine, in one unbroken chain, and never to
 *   inactive by a staff member's retry (R16: only R4's scheduled attempts do that).
 * And per command, when it ran alone:
 * - a refusal (4xx other than a declined charge) changed nothing;
 * - a declined staff retry is reported as declined and leaves the status, the attempts and the next
 *   scheduled retry as they were (R16);
 * - a good card always reactivates an inactive account (issue 25, item 3: also after a chargeback
 *   recorded on the day of the charge);
 * - a chargeback of a payment refunded in full is refused with 409 (R15).
 *
 * Runs on PGlite by default and on PostgreSQL with TEST_DATABASE_URL (CI), where the two requests
 * of a pair really overlap. FUZZ_SEED replays a failure; BILLING_MODEL_RUNS sets the count.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TRANSITIONS } from '@dealerpass/domain/account/status-transitions';
import { billDateOfCycle, cycleIndexOn } from '@dealerpass/domain/billing/renewal-calendar';
import { calendarDateIn, parseIsoDate, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import {
  accountEvents,
  invoices,
  staffSessions,
  staffUsers,
  subscriptions,
  users,
} from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { issueSandboxToken } from '../../src/sandboxes/payments/sandbox-tokens.ts';
import { getBalanceCents } from '../../src/services/billing/account-balance.ts';
import { runBilling } from '../../src/services/billing/run-billing.ts';
import { runAnnualBillingJobs } from '../../src/services/annual-billing/annual-jobs.ts';
import { asksFor, invoiceFiguresOf } from '../../src/services/annual-billing/reissue-invoice.ts';
import { createStaffSession } from '../../src/services/admin/staff/staff-session-store.ts';
import { STAFF_SESSION_COOKIE } from '../../src/plugins/staff-session.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { subscribeWithCard } from '../factories/subscriber-factory.ts';
import { addOpeningBalance, createAccount, sessionFor } from '../factories/sign-in.ts';
import { createStaffUser } from '../factories/staff-sign-in.ts';

// Cards expire in 2099: each run moves the clock on about two months, and many runs pass 2039.
const CARD_EXPIRY = '1299';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TIME_ZONE = 'America/New_York';
const APPROVED = '4111111111111111';
const DECLINED = '4000000000000002';
const RUNS = Number(process.env.BILLING_MODEL_RUNS ?? 20);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

/** Every (from → to) the domain's state machine allows, whatever the event. */
const EDGES = new Set(
  Object.values(ACCOUNT_TRANSITIONS).flatMap((transitions) =>
    Object.entries(transitions).map(([from, to]) => `${from}→${to}`),
  ),
);

const BILLING_ADDRESS = {
  billingFirstName: 'Casey',
  billingLastName: 'Dealer',
  billingCountry: 'US',
  billingAddress1: '1 Main St',
  billingAddress2: '',
  billingCity: 'Detroit',
  billingState: 'MI',
  billingZip: '48201',
};
const CANCEL = { cancellationReasonOptions: ['too-expensive'], userProvidedCancelReason: '' };

/** What the test knows without asking the database: what staff added to or took off the balance. */
interface Model {
  adjustedCents: number;
}

/** The account under test, its opening balance, and the chain of statuses seen so far. */
interface Real {
  userId: string;
  openingCents: number;
  chain: { current: string; seen: Set<string> };
}

type Op =
  | { kind: 'runBilling' }
  | { kind: 'newCard'; approve: boolean }
  | { kind: 'removeCard' }
  | { kind: 'cancel' }
  | { kind: 'reactivate'; approve: boolean }
  | { kind: 'refund'; part: 'rest' | 'half' }
  | { kind: 'chargeback' }
  | { kind: 'retry' }
  | { kind: 'adjust'; credit: boolean; cents: number }
  // Annual billing by check (R14): the dealer asks and voids, staff record a check (its exact
  // amount, or not) or its return, the jobs run (void at the due date, renewal invoices) with
  // the run, and the dealer adds an item (prorated on the year during one).
  | { kind: 'requestAnnual' }
  | { kind: 'voidInvoice' }
  | { kind: 'recordCheck'; exact: boolean }
  | { kind: 'returnedCheck' }
  | { kind: 'runAll' }
  | { kind: 'addItem' }
  // What can move an open invoice's year or figures away from the account's billing (decision
  // 054): a removal pending to the next bill date and its undo, staff's Adjust for the dealer.
  | { kind: 'removeItem' }
  | { kind: 'undoRemoval' }
  | { kind: 'staffChange'; add: boolean };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.constant({ kind: 'runBilling' as const }), weight: 3 },
  {
    arbitrary: fc.record({ kind: fc.constant('newCard' as const), approve: fc.boolean() }),
    weight: 3,
  },
  { arbitrary: fc.constant({ kind: 'removeCard' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'cancel' as const }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('reactivate' as const), approve: fc.boolean() }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      part: fc.constantFrom('rest' as const, 'half' as const),
    }),
    weight: 3,
  },
  { arbitrary: fc.constant({ kind: 'chargeback' as const }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'requestAnnual' as const }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'voidInvoice' as const }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('recordCheck' as const),
      exact: fc.constantFrom(true, true, true, false),
    }),
    weight: 3,
  },
  { arbitrary: fc.constant({ kind: 'returnedCheck' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'runAll' as const }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'addItem' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'removeItem' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'undoRemoval' as const }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('staffChange' as const), add: fc.boolean() }),
    weight: 1,
  },
  { arbitrary: fc.constant({ kind: 'retry' as const }), weight: 3 },
  {
    arbitrary: fc.record({
      kind: fc.constant('adjust' as const),
      credit: fc.boolean(),
      cents: fc.integer({ min: 1, max: 20_000 }),
    }),
    weight: 1,
  },
);

describe('one account, two actors, the billing run: a model-based test (issue 24)', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let billingStaffId: string;
  let now = new Date('2026-03-15T15:00:00Z');
  let counter = 0;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => now });
    browser = await t.browser();
    const staff = await createStaffUser(t, { role: 'billing' });
    await t.app.db
      .update(staffUsers)
      .set({ totpEnrolledAt: now })
      .where(eq(staffUsers.id, staff.id));
    billingStaffId = staff.id;
  }, 60_000);
  afterAll(() => t.close());

  const rowsOf = async <T>(query: SQL) =>
    ((await t.app.db.execute(query)) as unknown as { rows: T[] }).rows;

  /** A session of the dealer and one of billing staff, fresh at the clock's time. */
  async function dealerCookie(userId: string) {
    return `${SESSION_COOKIE}=${await sessionFor(t, userId, now)}`;
  }
  async function staffCookie() {
    const rawId = await createStaffSession(t.app.db, {
      staffId: billingStaffId,
      tokens: {},
      now,
      encryptionKey: t.app.keys.encryption,
    });
    await t.app.db
      .update(staffSessions)
      .set({ secondFactorAt: now })
      .where(
        sql`${staffSessions.staffId} = ${billingStaffId} and ${staffSessions.secondFactorAt} is null`,
      );
    return `${STAFF_SESSION_COOKIE}=${rawId}`;
  }

  const send = (
    method: 'GET' | 'PUT' | 'PATCH' | 'POST' | 'DELETE',
    url: string,
    cookie: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url,
      headers: {
        cookie: `${browser.cookie}; ${cookie}`,
        'x-csrf-token': browser.token,
        ...(payload ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload ? { payload: JSON.stringify(payload) } : {}),
    });

  async function tokenFor(approve: boolean) {
    const card = approve ? APPROVED : DECLINED;
    const { paymentToken } = await issueSandboxToken(
      t.app.db,
      { creditCardNumber: card, creditCardExpiration: CARD_EXPIRY, creditCardCode: '123' },
      now,
    );
    return {
      paymentToken,
      cardBrand: 'visa',
      cardLast4: card.slice(-4),
      creditCardExpiration: CARD_EXPIRY,
      ...BILLING_ADDRESS,
    };
  }

  /** An active subscriber with a card at the sandbox gateway, due in `dueInDays`. */
  async function subscriber(approve: boolean, dueInDays: number, openingCents: number) {
    counter += 1;
    const email = `model${counter}-${randomUUID().slice(0, 8)}@example.com`;
    const { user } = await createAccount(t, {
      email,
      accountStatus: 'active',
      subscriptions: ['NADA', 'MMR'],
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
      card: approve ? APPROVED : DECLINED,
      expiration: CARD_EXPIRY,
    });
    if (openingCents !== 0) await addOpeningBalance(t, user.id, openingCents);
    return user.id;
  }

  /** Everything a refusal must leave as it was. */
  async function snapshot(userId: string) {
    const [account] = await rowsOf<Record<string, unknown>>(sql`
      select u.account_status, u.card_last4, s.failed_attempts, s.next_retry_at, s.cancel_requested_at,
        s.gateway_payment_profile_id, s.current_period_end,
        (select coalesce(sum(amount_cents), 0)::int from balance_entries where user_id = u.id) as balance,
        (select count(*)::int from payments where user_id = u.id) as payments,
        (select count(*)::int from refunds where user_id = u.id) as refunds,
        (select count(*)::int from account_events where user_id = u.id) as events,
        (select count(*)::int from billing_periods where user_id = u.id) as periods,
        (select count(*)::int from sandbox_gateway_transactions tx
           join sandbox_gateway_payment_profiles pp on pp.id = tx.payment_profile_id
           join sandbox_gateway_customers c on c.id = pp.customer_id
           where c.merchant_customer_id = u.id::text) as gateway_transactions
      from users u left join subscriptions s on s.user_id = u.id where u.id = ${userId}`);
    return account!;
  }

  /** The payment a staff action acts on: the account's latest. */
  async function latestPayment(userId: string) {
    const [payment] = await rowsOf<{ id: string; amount_cents: number; refunded: number }>(sql`
      select p.id, p.amount_cents,
        (select coalesce(sum(r.amount_cents), 0)::int from refunds r
          where r.payment_id = p.id and r.status in ('pending', 'succeeded')) as refunded
      from payments p where p.user_id = ${userId} and p.gateway_transaction_id not like 'check:%'
      order by p.created_at desc, p.id limit 1`);
    return payment;
  }

  /** The account's latest invoice in a status (R14), if any. */
  async function invoiceOf(userId: string, status: 'open' | 'paid') {
    const [invoice] = await rowsOf<{ id: string; total_cents: number }>(sql`
      select id, total_cents from invoices where user_id = ${userId} and status = ${status}
      order by created_at desc limit 1`);
    return invoice;
  }

  interface Outcome {
    op: Op;
    response: LightMyRequestResponse | null;
  }

  /** Sends one operation as its actor would; null when there was nothing to send it about. */
  async function act(op: Op, model: Model, real: Real): Promise<Outcome> {
    const { userId } = real;
    const account = `/api/admin/accounts/${userId}`;
    const key = { requestKey: randomUUID(), reason: 'model test' };
    switch (op.kind) {
      case 'runBilling':
        await runBilling(t.app.deps.billing, { userId });
        return { op, response: null };
      case 'newCard':
        return {
          op,
          response: await send('PUT', '/api/users/paymentProfile', await dealerCookie(userId), {
            ...(await tokenFor(op.approve)),
            requestKey: crypto.randomUUID(),
          }),
        };
      case 'removeCard':
        return {
          op,
          response: await send('DELETE', '/api/users/paymentProfile', await dealerCookie(userId)),
        };
      case 'cancel':
        return {
          op,
          response: await send('PATCH', '/api/users/cancel', await dealerCookie(userId), CANCEL),
        };
      case 'reactivate':
        return {
          op,
          response: await send('PUT', '/api/users/reactivate', await dealerCookie(userId), {
            ...(await tokenFor(op.approve)),
            requestKey: crypto.randomUUID(),
          }),
        };
      case 'refund': {
        const payment = await latestPayment(userId);
        if (!payment) return { op, response: null };
        const left = payment.amount_cents - payment.refunded;
        const amountCents =
          op.part === 'rest' || left < 2 ? Math.max(left, 1) : Math.floor(left / 2);
        return {
          op,
          response: await send(
            'POST',
            `${account}/payments/${payment.id}/refund`,
            await staffCookie(),
            {
              ...key,
              amountCents,
            },
          ),
        };
      }
      case 'chargeback': {
        const payment = await latestPayment(userId);
        if (!payment) return { op, response: null };
        return {
          op,
          response: await send(
            'POST',
            `${account}/payments/${payment.id}/chargeback`,
            await staffCookie(),
            key,
          ),
        };
      }
      case 'retry':
        return {
          op,
          response: await send('POST', `${account}/retry-renewal`, await staffCookie(), key),
        };
      case 'requestAnnual':
        return {
          op,
          response: await send('POST', '/api/users/annualBilling', await dealerCookie(userId), {
            requestKey: randomUUID(),
          }),
        };
      case 'voidInvoice': {
        const invoice = await invoiceOf(userId, 'open');
        if (!invoice) return { op, response: null };
        return {
          op,
          response: await send(
            'POST',
            `/api/users/annualBilling/invoices/${invoice.id}/void`,
            await dealerCookie(userId),
            { requestKey: randomUUID() },
          ),
        };
      }
      case 'recordCheck': {
        const invoice = await invoiceOf(userId, 'open');
        if (!invoice) return { op, response: null };
        return {
          op,
          response: await send(
            'POST',
            `${account}/invoices/${invoice.id}/check`,
            await staffCookie(),
            {
              requestKey: randomUUID(),
              checkNumber: `${1000 + counter}`,
              amountCents: op.exact ? invoice.total_cents : invoice.total_cents + 100,
              receivedOn: toIsoDate(calendarDateIn(now, TIME_ZONE)),
            },
          ),
        };
      }
      case 'returnedCheck': {
        const invoice = await invoiceOf(userId, 'paid');
        if (!invoice) return { op, response: null };
        return {
          op,
          response: await send(
            'POST',
            `${account}/invoices/${invoice.id}/check/returned`,
            await staffCookie(),
            key,
          ),
        };
      }
      case 'runAll':
        // The full run's R14 jobs (due invoices voided, renewal invoices), then this account's run.
        await runAnnualBillingJobs(t.app.deps.billing);
        await runBilling(t.app.deps.billing, { userId });
        return { op, response: null };
      case 'addItem': {
        const [row] = await t.app.db
          .select({ codes: subscriptions.codes, pendingRemovals: subscriptions.pendingRemovals })
          .from(subscriptions)
          .where(eq(subscriptions.userId, userId));
        if (!row || row.codes.includes('KBB')) return { op, response: null };
        return {
          op,
          response: await send(
            'POST',
            '/api/users/subscriptions/change',
            await dealerCookie(userId),
            {
              codes: [...row.codes.filter((code) => !row.pendingRemovals.includes(code)), 'KBB'],
              idempotencyKey: randomUUID(),
              basedOn: { codes: row.codes, pendingRemovals: row.pendingRemovals },
            },
          ),
        };
      }
      case 'removeItem':
      case 'undoRemoval':
      case 'staffChange': {
        const [row] = await t.app.db
          .select({ codes: subscriptions.codes, pendingRemovals: subscriptions.pendingRemovals })
          .from(subscriptions)
          .where(eq(subscriptions.userId, userId));
        if (!row) return { op, response: null };
        const kept = row.codes.filter((code) => !row.pendingRemovals.includes(code));
        const basedOn = { codes: row.codes, pendingRemovals: row.pendingRemovals };
        if (op.kind === 'undoRemoval') {
          const code = row.pendingRemovals[0];
          if (code === undefined) return { op, response: null };
          return {
            op,
            response: await send(
              'POST',
              '/api/users/subscriptions/pendingRemovals/undo',
              await dealerCookie(userId),
              { code },
            ),
          };
        }
        if (op.kind === 'removeItem') {
          // MMR leaves at the next bill date (R10); NADA stays, so something is still billed.
          if (!kept.includes('MMR')) return { op, response: null };
          return {
            op,
            response: await send(
              'POST',
              '/api/users/subscriptions/change',
              await dealerCookie(userId),
              {
                codes: kept.filter((code) => code !== 'MMR'),
                idempotencyKey: randomUUID(),
                basedOn,
              },
            ),
          };
        }
        // Staff's Adjust (R10 on the dealer's behalf): add or remove GALVES.
        const codes = op.add
          ? [...kept.filter((code) => code !== 'GALVES'), 'GALVES']
          : kept.filter((code) => code !== 'GALVES');
        if (codes.length === kept.length && codes.every((code) => kept.includes(code))) {
          return { op, response: null };
        }
        return {
          op,
          response: await send('POST', `${account}/subscription-change`, await staffCookie(), {
            requestKey: randomUUID(),
            codes,
            basedOn,
            reason: 'model test',
          }),
        };
      }
      case 'adjust': {
        const response = await send('POST', `${account}/balance-adjustments`, await staffCookie(), {
          ...key,
          kind: op.credit ? 'credit' : 'charge',
          amountCents: op.cents,
        });
        if (response.statusCode === 200) model.adjustedCents += op.credit ? -op.cents : op.cents;
        return { op, response };
      }
    }
  }

  const describeOutcome = ({ op, response }: Outcome) =>
    `${JSON.stringify(op)} → ${response ? `${response.statusCode} ${response.body.slice(0, 300)}` : 'nothing sent'}`;

  function expectNoServerError(outcome: Outcome) {
    expect(outcome.response?.statusCode ?? 200, describeOutcome(outcome)).toBeLessThan(500);
  }

  /** A refusal: a 4xx that is not a declined charge (402) answers with nothing changed. */
  const isRefusal = (response: LightMyRequestResponse | null) =>
    response !== null &&
    response.statusCode >= 400 &&
    response.statusCode < 500 &&
    response.statusCode !== 402;

  /** One operation alone: its answer, then what the rulings say of it in particular. */
  async function actAlone(op: Op, model: Model, real: Real) {
    const before = await snapshot(real.userId);
    const payment = await latestPayment(real.userId);
    const chargedBack = payment
      ? (
          await rowsOf<{ at: string | null }>(
            sql`select charged_back_at as at from payments where id = ${payment.id}`,
          )
        )[0]?.at !== null
      : false;
    const outcome = await act(op, model, real);
    expectNoServerError(outcome);
    const after = await snapshot(real.userId);
    const what = describeOutcome(outcome);
    if (isRefusal(outcome.response))
      expect(after, `a refusal changed something: ${what}`).toEqual(before);

    if (
      op.kind === 'retry' &&
      before.account_status === 'validating payment' &&
      before.card_last4 === DECLINED.slice(-4) &&
      // A scheduled retry already due runs right after the extra attempt, as the schedule's own.
      before.next_retry_at !== null &&
      new Date(String(before.next_retry_at)).getTime() > now.getTime()
    ) {
      // R16: a declined staff retry is an extra attempt, reported as declined.
      expect(outcome.response!.body, what).not.toMatch(/"status":"?succeeded|"outcome":"paid"/);
      expect(
        outcome.response!.statusCode === 200 && !/declin/i.test(outcome.response!.body),
        what,
      ).toBe(false);
      expect(
        {
          status: after.account_status,
          attempts: after.failed_attempts,
          nextRetry: String(after.next_retry_at),
        },
        what,
      ).toEqual({
        status: 'validating payment',
        attempts: before.failed_attempts,
        nextRetry: String(before.next_retry_at),
      });
    }
    if (op.kind === 'reactivate' && op.approve && before.account_status === 'inactive') {
      // A good card always reactivates an inactive account.
      expect(outcome.response!.statusCode, what).toBe(200);
      expect(after.account_status, what).toBe('active');
    }
    if (
      op.kind === 'chargeback' &&
      payment &&
      !chargedBack &&
      payment.refunded >= payment.amount_cents
    ) {
      // R15: nothing is left to charge back.
      expect(outcome.response!.statusCode, what).toBe(409);
    }
  }

  /**
   * What the account owes, from its periods, payments, chargebacks and staff adjustments: renewals
   * billed (paid, or declined at least once), paid reactivations and changes, charged-back periods,
   * 25 dollars per chargeback, less every payment, plus the opening balance and staff adjustments.
   */
  async function owedCents(real: Real, model: Model): Promise<number> {
    const [row] = await rowsOf<{ owed: number | string }>(sql`
      select
        coalesce((select sum(bp.amount_cents - coalesce((
            select sum((line->>'cents')::int) from jsonb_array_elements(bp.quote->'lines') line
            where line->>'code' = 'BALANCE'), 0))
          from billing_periods bp
          where bp.user_id = ${real.userId} and (
            (bp.kind = 'renewal' and (bp.status in ('paid', 'failed') or bp.attempt > 1))
            or (bp.kind in ('reactivation', 'change') and bp.status = 'paid')
            -- R14: a year is charged when its check is recorded, and again when it is returned
            -- (the year owed anew); the returned check's payment stays as a payment.
            or bp.kind = 'annual'
            -- A charged-back period is no longer billed (decision 034); its charge and payment stay.
            or exists (select 1 from payments p
                       where p.billing_period_id = bp.id and p.charged_back_at is not null))), 0)
        + 2500 * (select count(*) from account_events
                  where user_id = ${real.userId} and event = 'chargeback')
        - coalesce((select sum(amount_cents) from payments where user_id = ${real.userId}), 0)
        as owed`);
    return Number(row!.owed) + real.openingCents + model.adjustedCents;
  }

  async function checkInvariants(real: Real, model: Model, history: string[]) {
    const { userId } = real;
    const context = history.join('\n');

    // The balance is what is owed.
    expect(await getBalanceCents(t.app.db, userId), context).toBe(await owedCents(real, model));

    // The gateway agrees with the ledger: approved charges and payments pair up, amount for amount.
    const unpaired = await rowsOf(sql`
      with charges as (
        select tx.id, tx.amount_cents from sandbox_gateway_transactions tx
        join sandbox_gateway_payment_profiles pp on pp.id = tx.payment_profile_id
        join sandbox_gateway_customers c on c.id = pp.customer_id
        where c.merchant_customer_id = ${userId}::text and tx.kind = 'charge'
          and tx.status in ('approved', 'refunded'))
      select 'charge without payment' as what, ch.id from charges ch
        where not exists (select 1 from payments p where p.gateway_transaction_id = ch.id
                          and p.amount_cents = ch.amount_cents)
      union all
      select 'payment without charge', p.id::text from payments p
        where p.user_id = ${userId}
          -- A period the balance's credit pays in full sends nothing to the gateway (send-charge.ts).
          and not (p.amount_cents = 0 and p.gateway_transaction_id = 'no-charge')
          -- A check (R14) went through no gateway.
          and p.gateway_transaction_id not like 'check:%'
          and not exists (select 1 from charges ch where ch.id = p.gateway_transaction_id)`);
    expect(unpaired, context).toEqual([]);

    // What went back at the gateway is what our refunds say, and never more than the charge.
    const refundMismatch = await rowsOf(sql`
      select p.id, p.amount_cents,
        (select coalesce(sum(tx.amount_cents), 0)::int from sandbox_gateway_transactions tx
          where tx.kind = 'refund' and tx.charge_id = p.gateway_transaction_id) as at_gateway,
        (select coalesce(sum(r.amount_cents), 0)::int from refunds r
          where r.payment_id = p.id and r.status = 'succeeded') as ours
      from payments p where p.user_id = ${userId}`);
    for (const row of refundMismatch as {
      id: string;
      amount_cents: number;
      at_gateway: number;
      ours: number;
    }[]) {
      expect(row.at_gateway, `${context}\npayment ${row.id}`).toBe(row.ours);
      expect(row.at_gateway, `${context}\npayment ${row.id}`).toBeLessThanOrEqual(row.amount_cents);
    }

    // R15: a chargeback only of what was not refunded, and no refund after it.
    const twice = await rowsOf(sql`
      select p.id from payments p where p.user_id = ${userId} and p.charged_back_at is not null
        and ((select coalesce(sum(r.amount_cents), 0) from refunds r
              where r.payment_id = p.id and r.status = 'succeeded'
                and r.created_at <= p.charged_back_at) >= p.amount_cents
          or exists (select 1 from refunds r where r.payment_id = p.id
                     and r.status in ('pending', 'succeeded') and r.created_at > p.charged_back_at))`);
    expect(twice, `money returned twice\n${context}`).toEqual([]);

    // One approved charge per renewal period.
    const doubleCharges = await rowsOf(sql`
      select split_part(idempotency_key, ':', 3) as period_start, count(*)::int as n
      from sandbox_gateway_transactions
      where kind = 'charge' and status in ('approved', 'refunded') and idempotency_key like 'renewal:%'
        and split_part(idempotency_key, ':', 2) = ${userId}::text
      group by 1 having count(*) > 1`);
    expect(doubleCharges, context).toEqual([]);

    // R14: at most one open invoice per account.
    const open = await rowsOf<{ n: number }>(
      sql`select count(*)::int as n from invoices where user_id = ${userId} and status = 'open'`,
    );
    expect(open[0]!.n, context).toBeLessThanOrEqual(1);
    // R14 (decision 052): an open invoice not yet due asks for what its year will bill, the
    // selection in force at its start (an addition, an undone removal replace it).
    const [openInvoice] = await t.app.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.userId, userId), eq(invoices.status, 'open')));
    const [billed] = await t.app.db
      .select({ status: users.accountStatus, subscription: subscriptions })
      .from(users)
      .innerJoin(subscriptions, eq(subscriptions.userId, users.id))
      .where(eq(users.id, userId));
    if (
      openInvoice &&
      billed &&
      ['active', 'validating payment'].includes(billed.status) &&
      openInvoice.dueOn > toIsoDate(calendarDateIn(now, TIME_ZONE))
    ) {
      const figures = invoiceFiguresOf(
        billed.subscription,
        openInvoice.periodStart,
        TIME_ZONE,
        t.app.prices.table(),
      );
      expect(
        { codes: openInvoice.codes, totalCents: openInvoice.totalCents },
        `an open invoice that does not ask for its year\n${context}`,
      ).toEqual({ codes: figures.codes, totalCents: figures.priced.totalCents });
      expect(asksFor(openInvoice, figures), context).toBe(true);
      // R14 (decision 054): its year starts on a bill date of the account's cycle, not before
      // its next one, so a check for it leaves no card charge inside the year (a reactivation's
      // new cycle moves it).
      const anchor = parseIsoDate(billed.subscription.cycleAnchor)!;
      const start = parseIsoDate(openInvoice.periodStart)!;
      expect(
        {
          billDate: toIsoDate(billDateOfCycle(anchor, cycleIndexOn(anchor, start))),
          notBeforeNextBill: openInvoice.periodStart >= billed.subscription.currentPeriodEnd,
        },
        `an open invoice whose year is not on the account's cycle\n${context}`,
      ).toEqual({ billDate: openInvoice.periodStart, notBeforeNextBill: true });
    }
    // R14: invoice numbers unique and without gaps, per prefix and year, across every account.
    const numbering = await rowsOf<{
      year: string;
      n: number;
      distinct_n: number;
      top: number;
    }>(sql`
      select split_part(number, '-', 2) as year, count(*)::int as n,
        count(distinct number)::int as distinct_n,
        max(split_part(number, '-', 3)::int)::int as top
      from invoices group by 1`);
    for (const row of numbering) {
      expect(
        { unique: row.distinct_n, top: row.top },
        `${context}
year ${row.year}`,
      ).toEqual({
        unique: row.n,
        top: row.n,
      });
    }
    // R14: no card is charged for a period a check paid: no renewal starts inside a paid year.
    const cardInYear = await rowsOf(sql`
      select r.period_start from billing_periods r join billing_periods a
        on a.user_id = r.user_id and a.kind = 'annual' and a.status = 'paid'
        and r.period_start >= a.period_start and r.period_start < a.period_end
      where r.user_id = ${userId} and r.kind = 'renewal'`);
    expect(
      cardInYear,
      `a card renewal inside a year paid by check
${context}`,
    ).toEqual([]);

    // R14 (decision 058): a reactivation inside a paid year charges what is owed, no month, and
    // keeps the year: the account's period runs to the year's end once the run has passed its start.
    const monthInYear = await rowsOf(sql`
      select r.period_start, r.period_end from billing_periods r join billing_periods a
        on a.user_id = r.user_id and a.kind = 'annual' and a.status = 'paid'
        and r.period_start >= a.period_start and r.period_start < a.period_end
      where r.user_id = ${userId} and r.kind = 'reactivation' and r.status = 'paid'
        and (r.period_end <> a.period_end or exists (
          select 1 from jsonb_array_elements(r.quote->'lines') line where line->>'code' <> 'BALANCE'))`);
    expect(
      monthInYear,
      `a reactivation inside a paid year that charged a month\n${context}`,
    ).toEqual([]);
    const cycleInYear = await rowsOf(sql`
      select s.current_period_end, a.period_end from subscriptions s
        join users u on u.id = s.user_id
        join billing_periods a on a.user_id = s.user_id and a.kind = 'annual' and a.status = 'paid'
      where s.user_id = ${userId} and u.account_status in ('active', 'pending cancel')
        and s.current_period_end > a.period_start and s.current_period_end < a.period_end`);
    expect(cycleInYear, `a next bill date inside a paid year\n${context}`).toEqual([]);
    // R14 (decision 058): a cancellation takes effect at the end of a year paid before it did;
    // (decision 060) nor does R4's last retry of a month billed before the year end it early.
    const endedInYear = await rowsOf(sql`
      select e.at, e.event, a.period_start, a.period_end from account_events e
        join billing_periods a on a.user_id = e.user_id and a.kind = 'annual' and a.status = 'paid'
          and coalesce(a.settled_at, a.created_at) < e.at
          and a.period_end > (e.at at time zone ${TIME_ZONE})::date
      where e.user_id = ${userId} and e.from_status = 'pending cancel' and e.to_status = 'inactive'
        and (e.event = 'cancellation took effect' or e.event like 'last retry declined%')`);
    expect(endedInYear, `a cancellation that ended a paid year early\n${context}`).toEqual([]);

    // The status followed the state machine, in one chain ending at the current status; a staff
    // member never made the account inactive except by recording a chargeback (R16).
    const fresh = (
      await t.app.db
        .select()
        .from(accountEvents)
        .where(eq(accountEvents.userId, userId))
        .orderBy(accountEvents.at)
    ).filter((event) => !real.chain.seen.has(event.id) && event.toStatus !== null);
    while (fresh.length > 0) {
      const index = fresh.findIndex((event) => event.fromStatus === real.chain.current);
      expect(
        index,
        `no event continues from ${real.chain.current}: ${JSON.stringify(fresh)}\n${context}`,
      ).toBeGreaterThanOrEqual(0);
      const [event] = fresh.splice(index, 1);
      const edge = `${event!.fromStatus}→${event!.toStatus}`;
      if (event!.fromStatus !== event!.toStatus)
        expect(EDGES.has(edge), `${edge}\n${context}`).toBe(true);
      if (event!.toStatus === 'inactive' && event!.fromStatus === 'validating payment') {
        expect(
          // The status change's event text is its note, "chargeback of payment {id}".
          event!.event.startsWith('chargeback') || !['staff', 'support'].includes(event!.actor),
          `${edge} by ${event!.actor} (${event!.event})\n${context}`,
        ).toBe(true);
      }
      real.chain.seen.add(event!.id);
      real.chain.current = event!.toStatus!;
    }
    const [user] = await t.app.db.select().from(users).where(eq(users.id, userId));
    expect(user!.accountStatus, context).toBe(real.chain.current);
  }

  class Alone implements fc.AsyncCommand<Model, Real & { history: string[] }> {
    readonly op: Op;
    constructor(op: Op) {
      this.op = op;
    }
    check = () => true;
    async run(model: Model, real: Real & { history: string[] }) {
      real.history.push(`${now.toISOString()} ${this.toString()}`);
      await actAlone(this.op, model, real);
      await checkInvariants(real, model, real.history);
    }
    toString = () => JSON.stringify(this.op);
  }

  class Together implements fc.AsyncCommand<Model, Real & { history: string[] }> {
    readonly a: Op;
    readonly b: Op;
    constructor(a: Op, b: Op) {
      this.a = a;
      this.b = b;
    }
    check = () => true;
    async run(model: Model, real: Real & { history: string[] }) {
      real.history.push(`${now.toISOString()} ${this.toString()}`);
      const outcomes = await Promise.all([act(this.a, model, real), act(this.b, model, real)]);
      for (const outcome of outcomes) expectNoServerError(outcome);
      await checkInvariants(real, model, real.history);
    }
    toString = () => `together(${JSON.stringify(this.a)}, ${JSON.stringify(this.b)})`;
  }

  class Advance implements fc.AsyncCommand<Model, Real & { history: string[] }> {
    readonly hours: number;
    constructor(hours: number) {
      this.hours = hours;
    }
    check = () => true;
    async run(_model: Model, real: Real & { history: string[] }) {
      now = new Date(now.getTime() + this.hours * HOUR);
      real.history.push(`advance ${this.hours} h → ${now.toISOString()}`);
    }
    toString = () => `advance(${this.hours} h)`;
  }

  const commands = [
    opArb.map((op) => new Alone(op)),
    fc.tuple(opArb, opArb).map(([a, b]) => new Together(a, b)),
    // Hours within a day (same-day sequences) or days at a time (retries, renewals).
    fc
      .oneof(
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 1, max: 12 }).map((d) => d * 24),
      )
      .map((hours) => new Advance(hours)),
  ];

  it('replays an account that goes inactive with an open invoice, reactivates and pays that invoice by check: no card charge in the year (decision 054)', async () => {
    now = new Date(now.getTime() + 60 * DAY);
    const userId = await subscriber(true, 3, 0);
    const real = {
      userId,
      openingCents: 0,
      chain: { current: 'active', seen: new Set<string>() },
      history: [`account ${userId}: the replay of decision 054`],
    };
    const days = (n: number) => new Advance(n * 24);
    const alone = (op: Op) => new Alone(op);
    const cmds = [
      // Asked 3 days before a bill date: the year starts at the bill date after it.
      alone({ kind: 'requestAnnual' }),
      alone({ kind: 'removeCard' }),
      // The renewal fails (no card), and R4's retries 1, 3 and 5 days later: inactive.
      days(3),
      alone({ kind: 'runBilling' }),
      days(1),
      alone({ kind: 'runBilling' }),
      days(2),
      alone({ kind: 'runBilling' }),
      days(2),
      alone({ kind: 'runBilling' }),
      // Reactivated two days later: a new cycle; then the check for the open invoice.
      days(2),
      alone({ kind: 'reactivate', approve: true }),
      alone({ kind: 'recordCheck', exact: true }),
      ...Array.from({ length: 14 }, () => [days(30), alone({ kind: 'runAll' })]).flat(),
    ];
    await fc.asyncModelRun(() => ({ model: { adjustedCents: 0 }, real }), cmds);
    // The replay went where it should: reactivated, and a year paid by check.
    const [paid] = await rowsOf<{ n: number }>(
      sql`select count(*)::int as n from invoices where user_id = ${userId} and status = 'paid'`,
    );
    expect(paid!.n, real.history.join('\n')).toBe(1);
    expect(real.history.join('\n')).toContain('reactivate');
  }, 120_000);

  /** A fixed replay: an account 3 days before a bill date (its card approving), then `cmds`. */
  async function replay(
    name: string,
    build: (days: (n: number) => Advance) => Alone[] | (Alone | Advance)[],
    approve = true,
  ) {
    now = new Date(now.getTime() + 60 * DAY);
    const userId = await subscriber(approve, 3, 0);
    const real = {
      userId,
      openingCents: 0,
      chain: { current: 'active', seen: new Set<string>() },
      history: [`account ${userId}: ${name}`],
    };
    await fc.asyncModelRun(
      () => ({ model: { adjustedCents: 0 }, real }),
      build((n: number) => new Advance(n * 24)),
    );
    return { userId, real };
  }

  it('replays a chargeback during a year paid by check and a reactivation: the balance only, the year goes on (decision 058)', async () => {
    const alone = (op: Op) => new Alone(op);
    const { userId, real } = await replay('a chargeback in a paid year', (days) => [
      // Asked 3 days before a bill date: the year starts at the bill date after it; paid.
      alone({ kind: 'requestAnnual' }),
      alone({ kind: 'recordCheck', exact: true }),
      days(3),
      alone({ kind: 'runAll' }),
      days(31),
      alone({ kind: 'runAll' }),
      // Inside the year: the month before it is charged back; reactivated four days later.
      days(10),
      alone({ kind: 'chargeback' }),
      days(4),
      alone({ kind: 'reactivate', approve: true }),
      ...Array.from({ length: 12 }, () => [days(30), alone({ kind: 'runAll' })]).flat(),
    ]);
    const [reactivated] = await rowsOf<{ n: number }>(
      sql`select count(*)::int as n from billing_periods where user_id = ${userId}
          and kind = 'reactivation' and status = 'paid'`,
    );
    expect(reactivated!.n, real.history.join('\n')).toBe(1);
  }, 120_000);

  it('replays a cancellation after paying a year that has not begun: billed to its start, inactive at its end (decision 058)', async () => {
    const alone = (op: Op) => new Alone(op);
    const { userId, real } = await replay('a cancellation before a paid year', (days) => [
      alone({ kind: 'requestAnnual' }),
      alone({ kind: 'recordCheck', exact: true }),
      alone({ kind: 'cancel' }),
      days(3),
      alone({ kind: 'runAll' }),
      ...Array.from({ length: 14 }, () => [days(30), alone({ kind: 'runAll' })]).flat(),
    ]);
    const [account] = await t.app.db.select().from(users).where(eq(users.id, userId));
    expect(account!.accountStatus, real.history.join('\n')).toBe('inactive');
  }, 120_000);

  /** The account's paid year (R14): its first day and the bill date after its last. */
  async function paidYearOf(userId: string) {
    const [year] = await rowsOf<{ start: string; end: string }>(sql`
      select period_start::text as start, period_end::text as "end" from billing_periods
      where user_id = ${userId} and kind = 'annual' and status = 'paid'`);
    return year!;
  }

  it('replays a chargeback before a paid year begins and a reactivation: the cycle leads into the year, no card renewal falls in it (decision 060)', async () => {
    const alone = (op: Op) => new Alone(op);
    const { userId, real } = await replay('a chargeback before a paid year', (days) => [
      // Asked 3 days before a bill date: the year starts at the bill date after it; paid.
      alone({ kind: 'requestAnnual' }),
      alone({ kind: 'recordCheck', exact: true }),
      // The month before the year is renewed (the factory's account is due a day before its
      // cycle's bill date, so two runs), charged back nine days on: inactive.
      days(3),
      alone({ kind: 'runAll' }),
      days(1),
      alone({ kind: 'runAll' }),
      days(9),
      alone({ kind: 'chargeback' }),
      // Reactivated four days later, before the year: R4's charge, the cycle kept.
      days(4),
      alone({ kind: 'reactivate', approve: true }),
      ...Array.from({ length: 14 }, () => [days(30), alone({ kind: 'runAll' })]).flat(),
    ]);
    const history = real.history.join('\n');
    const year = await paidYearOf(userId);
    const reactivations = await rowsOf<{ period_end: string; status: string; lines: string[] }>(sql`
      select period_end::text, status,
        (select array_agg(line->>'code') from jsonb_array_elements(quote->'lines') line) as lines
      from billing_periods where user_id = ${userId} and kind = 'reactivation'`);
    // The month's money went back with the chargeback: R4's month and the fee, to the year.
    expect(reactivations, history).toEqual([
      { period_end: year.start, status: 'paid', lines: ['NADA', 'MMR', 'BALANCE'] },
    ]);
    // The run passed the year at its first day: the renewal after it falls on its end.
    const [renewed] = await rowsOf<{ n: number }>(sql`
      select count(*)::int as n from billing_periods
      where user_id = ${userId} and kind = 'renewal' and period_start = ${year.end}`);
    expect(renewed!.n, history).toBe(1);
  }, 120_000);

  it('replays a pending cancellation whose month before a paid year is declined to the last retry: the month owed, the year, inactive at its end (decision 060)', async () => {
    const alone = (op: Op) => new Alone(op);
    const { userId, real } = await replay(
      'a declined month before a paid year, pending cancel',
      (days) => [
        alone({ kind: 'requestAnnual' }),
        alone({ kind: 'recordCheck', exact: true }),
        alone({ kind: 'cancel' }),
        // The month before the year: declined, and R4's retries 1, 3 and 5 days later.
        days(3),
        alone({ kind: 'runAll' }),
        days(1),
        alone({ kind: 'runAll' }),
        days(2),
        alone({ kind: 'runAll' }),
        days(2),
        alone({ kind: 'runAll' }),
        ...Array.from({ length: 14 }, () => [days(30), alone({ kind: 'runAll' })]).flat(),
      ],
      false,
    );
    const history = real.history.join('\n');
    const year = await paidYearOf(userId);
    const [account] = await t.app.db.select().from(users).where(eq(users.id, userId));
    expect(account!.accountStatus, history).toBe('inactive');
    // Inactive when the cancellation took effect, at the year's end; the month is still owed.
    const [ended] = await rowsOf<{ day: string }>(sql`
      select (at at time zone ${TIME_ZONE})::date::text as day from account_events
      where user_id = ${userId} and to_status = 'inactive'`);
    expect(ended!.day >= year.end, history).toBe(true);
    const [failed] = await rowsOf<{ n: number; cents: number }>(sql`
      select count(*)::int as n, coalesce(sum(amount_cents), 0)::int as cents from billing_periods
      where user_id = ${userId} and kind = 'renewal' and status = 'failed'
        and period_start < ${year.start}`);
    expect(failed!.n, history).toBeGreaterThan(0);
    expect(await getBalanceCents(t.app.db, userId), history).toBe(failed!.cents);
  }, 120_000);

  it('replays a chargeback before a paid year and a reactivation on the year’s first day: active on the year, the balance only (decision 060)', async () => {
    const alone = (op: Op) => new Alone(op);
    const { userId, real } = await replay('a reactivation on a paid year’s first day', (days) => [
      alone({ kind: 'requestAnnual' }),
      alone({ kind: 'recordCheck', exact: true }),
      days(3),
      alone({ kind: 'runAll' }),
      days(1),
      alone({ kind: 'runAll' }),
      days(9),
      alone({ kind: 'chargeback' }),
    ]);
    const year = await paidYearOf(userId);
    // The clock to the year's first day (its first hour in the business time zone).
    const dayOf = (instant: Date) => toIsoDate(calendarDateIn(instant, TIME_ZONE));
    while (dayOf(now) < year.start) now = new Date(now.getTime() + HOUR);
    real.history.push(`advance to ${now.toISOString()}, the year's first day`);
    await fc.asyncModelRun(
      () => ({ model: { adjustedCents: 0 }, real }),
      [
        new Alone({ kind: 'runAll' }),
        new Alone({ kind: 'reactivate', approve: true }),
        ...Array.from({ length: 13 }, () => [
          new Advance(30 * 24),
          new Alone({ kind: 'runAll' }),
        ]).flat(),
      ],
    );
    const history = real.history.join('\n');
    const reactivations = await rowsOf<{ period_start: string; period_end: string }>(sql`
      select period_start::text, period_end::text from billing_periods
      where user_id = ${userId} and kind = 'reactivation' and status = 'paid'`);
    expect(reactivations, history).toEqual([{ period_start: year.start, period_end: year.end }]);
    const cards = await rowsOf<{ period_start: string }>(sql`
      select period_start::text from billing_periods
      where user_id = ${userId} and kind = 'renewal' and period_start > ${year.start}`);
    expect(
      cards.every((row) => row.period_start >= year.end),
      history,
    ).toBe(true);
  }, 120_000);

  it('keeps the balance, the gateway, the status and the rulings true whatever the two actors do', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        fc.oneof(fc.constant(0), fc.integer({ min: -10_000, max: 10_000 })),
        fc.integer({ min: 0, max: 5 * 365 * 24 }),
        fc.commands(commands, { maxCommands: 20, size: '+1' }),
        async (approve, dueInDays, openingCents, startHours, cmds) => {
          // The clock only moves forward across runs, so earlier runs' accounts stay consistent.
          now = new Date(now.getTime() + 60 * DAY + (startHours % (30 * 24)) * HOUR);
          const userId = await subscriber(approve, dueInDays, openingCents);
          const real = {
            userId,
            openingCents,
            chain: { current: 'active', seen: new Set<string>() },
            history: [
              `account ${userId}: ${approve ? 'approving' : 'declining'} card, due in ${dueInDays} days`,
            ],
          };
          await fc.asyncModelRun(() => ({ model: { adjustedCents: 0 }, real }), cmds);
        },
      ),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
  }, 600_000);
});
