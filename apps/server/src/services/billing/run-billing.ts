import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { and, desc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { quote, type IQuote } from '@dealerpass/domain/prices';
import { formatCurrency } from '@dealerpass/domain/money';
import {
  billingPeriodShown,
  billingPeriodText,
  cardBrandName,
  paidWithText,
} from '@dealerpass/domain/billing/receipt-text';
import { nextBillDate, PAYMENT_RETRY_DAYS } from '@dealerpass/domain/billing/renewal-calendar';
import { calendarDateIn, parseIsoDate, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import {
  COMPLIMENTARY_DETAIL,
  STATUS_DESCRIPTIONS,
  type TAccountStatus,
} from '@dealerpass/domain/account/status';
import type { PaymentGateway } from '../../adapters/payments/payment-gateway.ts';
import { PaymentGatewayError } from '../../adapters/payments/payment-gateway.ts';
import { anyOf, unnestRows } from '../../db/bulk.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { accountEvents, billingPeriods, payments, subscriptions, users } from '../../db/schema.ts';
import { enqueueMail, enqueueMails, type MailToSend } from '../mail/enqueue-mail.ts';
import { receiptCrc32 } from '../receipts/build-year-zip.ts';
import { renderReceiptPdf } from '../receipts/render-receipt.ts';
import {
  addBalanceEntries,
  getBalanceCents,
  periodChargeEntry,
  type BalanceEntry,
} from './account-balance.ts';

/**
 * While a charge is in flight no other run touches the account. The lease is short and the run
 * that holds it renews it while it works (LEASE_RENEWAL_MS), so after a crash another run takes
 * the charge over within about a minute (issue 13) instead of leaving it unrecorded.
 */
export const CHARGE_LEASE_MS = 60 * 1000;
/** How often a live run renews its leases: three renewals a lease, so one late tick loses nothing. */
export const LEASE_RENEWAL_MS = CHARGE_LEASE_MS / 3;
/** After a retryable gateway failure (no answer, a later try asked for), the charge waits this long. */
export const RETRYABLE_FAILURE_DELAY_MS = 10 * 60 * 1000;
const DAY_MS = 86_400_000;

export interface BillingDeps {
  db: Database;
  payments: PaymentGateway;
  now: () => Date;
  timeZone: string;
  company: { name: string; supportPhone: string };
  mailKind: 'smtp' | 'mailbox';
  /** Where the run reports charges it will retry; a Fastify logger or the console. */
  log: { warn(details: object, message: string): void };
  /** How often a live run renews its leases (default LEASE_RENEWAL_MS; tests shorten it). */
  leaseRenewalMs?: number;
}

export interface BillingRunResult {
  charged: number;
  declined: number;
  deactivated: number;
  retryLater: number;
}

export interface ClaimedRenewal {
  userId: string;
  periodId: string;
  /** 'renewal' (the run), or 'reactivation' (PUT /api/users/reactivate, or the run finishing one after a crash). */
  kind?: 'renewal' | 'reactivation';
  idempotencyKey: string;
  amountCents: number;
  customerProfileId: string;
  paymentProfileId: string;
  /** The card the attempt charges, for the receipt (the account's card on file otherwise). */
  cardBrand?: string | null;
  cardLast4?: string | null;
}

/** An approved charge of a claimed period, waiting to be recorded. */
export interface ApprovedCharge {
  renewal: ClaimedRenewal;
  transactionId: string;
}

/** What the claim reads of a billing period (raw SQL: dates as text, like the schema's). */
interface ClaimedPeriod {
  id: string;
  userId: string;
  status: (typeof billingPeriods.$inferSelect)['status'];
  periodStart: string;
  periodEnd: string;
  amountCents: number;
  idempotencyKey: string;
  gatewayCustomerId: string | null;
  gatewayPaymentProfileId: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
}

const PERIOD_FIELDS = sql.raw(
  `id, user_id as "userId", status, period_start::text as "periodStart",
  period_end::text as "periodEnd", amount_cents as "amountCents",
  idempotency_key as "idempotencyKey", gateway_customer_id as "gatewayCustomerId",
  gateway_payment_profile_id as "gatewayPaymentProfileId", card_brand as "cardBrand",
  card_last4 as "cardLast4"`,
);

/** Accounts claimed per transaction, and charged concurrently before their record. */
const DEFAULT_BATCH_SIZE = 1000;
/** Receipts rendered in one go before the run lets other work in (see recordPayments). */
const RECEIPTS_BETWEEN_YIELDS = 25;
/** Batches handled at once by one run (each claim skips the others' rows). */
const DEFAULT_WORKERS = 5;

const isoDate = (text: string) => {
  const date = parseIsoDate(text);
  if (!date) throw new Error(`not a date: ${text}`);
  return date;
};

/**
 * The recurring billing run (DECISIONS R4, issue 5). Every account whose period has ended is
 * handled once: pending cancellations become inactive; others are charged the domain's quote of
 * that moment. Safe with any number of concurrent runs and after any crash:
 * - rows are claimed with FOR UPDATE SKIP LOCKED and leased while their charge is in flight;
 * - a period exists once per account (unique user + period start), created before any charge,
 *   with the card its attempt charges;
 * - the gateway call carries the period attempt's idempotency key and that card, the same on
 *   every retry, so a rerun after a crash between the charge and its record gets the first
 *   answer back;
 * - the payment row is unique per period.
 * A reactivation left pending by a crash (its lease run out) is finished the same way.
 *
 * Throughput (bench/billing-run.ts): batches are claimed, opened and recorded with a few
 * multi-row statements each, their charges run concurrently, and several batches are in
 * flight at once.
 */
export async function runBilling(
  deps: BillingDeps,
  options: {
    batchSize?: number;
    /** Batches in flight at once (default 5). */ workers?: number;
    /** Only this account (a new card's immediate retry, R4). */ userId?: string;
    /**
     * Only charges a stopped run or request left behind: a claimed attempt still due whose lease
     * ran out (the frequent takeover check between scheduled runs).
     */
    abandonedOnly?: boolean;
  } = {},
): Promise<BillingRunResult> {
  const result: BillingRunResult = { charged: 0, declined: 0, deactivated: 0, retryLater: 0 };
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const workers = options.userId ? 1 : Math.max(1, options.workers ?? DEFAULT_WORKERS);
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (;;) {
        const claimed = await claimDueAccounts(deps, batchSize, result, options);
        if (claimed === null) return;
        await chargeAndRecord(deps, claimed, result);
      }
    }),
  );
  return result;
}

type Outcome =
  | { status: 'approved'; transactionId: string }
  | { status: 'declined'; reason: string }
  | { status: 'retry' };

/** Phase 1, in one transaction: lock a batch of due accounts, end cancellations, open periods. */
async function claimDueAccounts(
  deps: BillingDeps,
  batchSize: number,
  result: BillingRunResult,
  options: { userId?: string | undefined; abandonedOnly?: boolean | undefined },
): Promise<ClaimedBatch | null> {
  const onlyUserId = options.userId;
  const now = deps.now();
  const today = toIsoDate(calendarDateIn(now, deps.timeZone));
  const lease = new Date(now.getTime() + CHARGE_LEASE_MS);
  return deps.db.transaction(async (tx) => {
    await preferIndexLookups(tx);
    const due = await tx
      .select({
        userId: subscriptions.userId,
        codes: subscriptions.codes,
        cycleAnchor: subscriptions.cycleAnchor,
        periodStart: subscriptions.currentPeriodEnd,
        customerProfileId: subscriptions.gatewayCustomerId,
        paymentProfileId: subscriptions.gatewayPaymentProfileId,
        status: users.accountStatus,
        details: users.accountStatusDetails,
        cardBrand: users.cardBrand,
        cardLast4: users.cardLast4,
      })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(
        and(
          or(
            and(
              lte(subscriptions.currentPeriodEnd, today),
              sql`${users.accountStatus} in ('active', 'pending cancel', 'validating payment')`,
            ),
            // Only with a lease that ran out: a reactivation whose request never finished.
            and(
              eq(users.accountStatus, 'pending reactivation'),
              lte(subscriptions.nextRetryAt, now),
            ),
          ),
          or(isNull(subscriptions.nextRetryAt), lte(subscriptions.nextRetryAt, now)),
          onlyUserId ? eq(subscriptions.userId, onlyUserId) : undefined,
          // A claimed attempt keeps its card on the period until it is settled or declined.
          options.abandonedOnly
            ? sql`exists (select 1 from ${billingPeriods} where ${billingPeriods.userId} = ${subscriptions.userId} and ${billingPeriods.status} = 'due' and ${billingPeriods.gatewayPaymentProfileId} is not null)`
            : undefined,
        ),
      )
      .orderBy(subscriptions.currentPeriodEnd)
      .limit(batchSize)
      .for('update', { of: subscriptions, skipLocked: true });
    if (due.length === 0) return null;
    const batch = (renewals: ClaimedRenewal[]): ClaimedBatch => ({ renewals, lease });

    const renewals: ClaimedRenewal[] = [];
    const toOpen: (typeof due)[number][] = [];
    for (const account of due) {
      if (
        (account.details ?? '').trim().toLowerCase() === COMPLIMENTARY_DETAIL &&
        account.status === 'active'
      ) {
        // R4: complimentary accounts are not charged; their period still moves on, recorded as waived.
        const periodEnd = toIsoDate(
          nextBillDate(isoDate(account.cycleAnchor), isoDate(account.periodStart)),
        );
        await tx
          .insert(billingPeriods)
          .values({
            userId: account.userId,
            kind: 'renewal',
            periodStart: account.periodStart,
            periodEnd,
            amountCents: 0,
            quote: { lines: [], subtotalCents: 0, platformFeeCents: 0, totalCents: 0 },
            status: 'waived',
            idempotencyKey: `renewal:${account.userId}:${account.periodStart}:waived`,
            settledAt: now,
          })
          .onConflictDoNothing({ target: [billingPeriods.userId, billingPeriods.periodStart] });
        await advancePeriod(tx, account.userId, periodEnd, account.periodStart, now);
        continue;
      }
      if (account.status === 'pending cancel') {
        // R4: a cancellation takes effect at the period's end, with no further charge.
        await setStatus(
          tx,
          account.userId,
          'pending cancel',
          'inactive',
          'cancellation took effect',
          'billing-run',
          now,
        );
        await tx
          .update(subscriptions)
          .set({ nextRetryAt: null, updatedAt: now })
          .where(eq(subscriptions.userId, account.userId));
        result.deactivated += 1;
        continue;
      }
      if (account.status === 'pending reactivation') {
        const resumed = await resumeReactivation(tx, deps, account.userId, lease, now);
        if (resumed) renewals.push(resumed);
        continue;
      }
      if (!account.customerProfileId || !account.paymentProfileId) {
        // No card on file: the renewal cannot be charged; treated as a declined charge.
        await recordDecline(tx, deps, account.userId, now, 'no card on file');
        result.declined += 1;
        continue;
      }
      toOpen.push(account);
    }
    if (toOpen.length === 0) return batch(renewals);

    // Every period of the batch in one statement; an existing one (a retry) is left as it is.
    const priced = new Map<string, IQuote>(
      toOpen.map((account) => [account.userId, quote(account.codes as TSubscriptionCode[], now)]),
    );
    const quoteOf = (account: (typeof toOpen)[number]) => priced.get(account.userId)!;
    const opened = unnestRows(toOpen, {
      user_id: ['uuid', (account) => account.userId],
      kind: ['text', () => 'renewal'],
      period_start: ['date', (account) => account.periodStart],
      period_end: [
        'date',
        (account) =>
          toIsoDate(nextBillDate(isoDate(account.cycleAnchor), isoDate(account.periodStart))),
      ],
      amount_cents: ['int', (account) => quoteOf(account).totalCents],
      quote: ['jsonb', (account) => JSON.stringify(quoteOf(account))],
      idempotency_key: ['text', (account) => `renewal:${account.userId}:${account.periodStart}:1`],
      gateway_customer_id: ['text', (account) => account.customerProfileId],
      gateway_payment_profile_id: ['text', (account) => account.paymentProfileId],
      card_brand: ['text', (account) => account.cardBrand],
      card_last4: ['text', (account) => account.cardLast4],
    });
    const inserted = (await tx.execute(sql`
      insert into ${billingPeriods} (${opened.names}) ${opened.select}
      on conflict (user_id, period_start) do nothing
      returning ${PERIOD_FIELDS}`)) as unknown as { rows: ClaimedPeriod[] };
    const periods = inserted.rows;
    if (periods.length < toOpen.length) {
      // Periods opened by an earlier run (a crash, a decline's next attempt): read as they are.
      const fresh = new Set(periods.map((period) => period.userId));
      const earlier = toOpen.filter((account) => !fresh.has(account.userId));
      const found = (await tx.execute(sql`
        select ${PERIOD_FIELDS} from ${billingPeriods}
        where ${anyOf(
          billingPeriods.userId,
          earlier.map((account) => account.userId),
          'uuid',
        )} and (user_id, period_start) in (${
          unnestRows(earlier, {
            user_id: ['uuid', (account) => account.userId],
            period_start: ['date', (account) => account.periodStart],
          }).select
        })`)) as unknown as { rows: ClaimedPeriod[] };
      periods.push(...found.rows);
    }
    const periodOf = new Map(periods.map((period) => [period.userId, period]));
    const leased: string[] = [];
    for (const account of toOpen) {
      const period = periodOf.get(account.userId);
      if (!period) throw new Error('billing period vanished');
      if (period.status === 'paid') {
        // A crash after the payment was recorded but before the period advanced: finish that step.
        await advancePeriod(tx, account.userId, period.periodEnd, period.periodStart, now);
        continue;
      }
      let card = {
        customerProfileId: period.gatewayCustomerId,
        paymentProfileId: period.gatewayPaymentProfileId,
        cardBrand: period.cardBrand,
        cardLast4: period.cardLast4,
      };
      if (!card.customerProfileId || !card.paymentProfileId) {
        // A new attempt after a decline: it charges the card on file now.
        card = {
          customerProfileId: account.customerProfileId,
          paymentProfileId: account.paymentProfileId,
          cardBrand: account.cardBrand,
          cardLast4: account.cardLast4,
        };
        await tx
          .update(billingPeriods)
          .set({
            gatewayCustomerId: card.customerProfileId,
            gatewayPaymentProfileId: card.paymentProfileId,
            cardBrand: card.cardBrand,
            cardLast4: card.cardLast4,
          })
          .where(eq(billingPeriods.id, period.id));
      }
      leased.push(account.userId);
      renewals.push({
        userId: account.userId,
        periodId: period.id,
        kind: 'renewal',
        idempotencyKey: period.idempotencyKey,
        amountCents: period.amountCents,
        customerProfileId: card.customerProfileId!,
        paymentProfileId: card.paymentProfileId!,
        cardBrand: card.cardBrand,
        cardLast4: card.cardLast4,
      });
    }
    if (leased.length > 0) {
      await tx
        .update(subscriptions)
        .set({ nextRetryAt: lease, updatedAt: now })
        .where(anyOf(subscriptions.userId, leased, 'uuid'));
    }
    return batch(renewals);
  });
}

/** A claimed batch and the lease its accounts hold (the same instant for all of them). */
interface ClaimedBatch {
  renewals: ClaimedRenewal[];
  lease: Date;
}

/**
 * Keeps a live run's leases from running out while it works: every `leaseRenewalMs` the accounts
 * whose lease is still the one this run set get a new one. A lease another run has taken over,
 * or that a record has cleared or replaced meanwhile, no longer matches and is left alone, so a
 * renewal never overrides a retry date. `stop()` ends the renewals and waits for one in flight;
 * it resolves to the lease the accounts hold then.
 */
export function keepLeased(
  deps: Pick<BillingDeps, 'db' | 'now' | 'log' | 'leaseRenewalMs'>,
  userIds: readonly string[],
  lease: Date,
): { stop(): Promise<Date> } {
  let held = [...userIds];
  let current = lease;
  let renewing: Promise<void> = Promise.resolve();
  const renew = async () => {
    const next = new Date(deps.now().getTime() + CHARGE_LEASE_MS);
    if (held.length === 0 || next <= current) return;
    const renewed = await deps.db
      .update(subscriptions)
      .set({ nextRetryAt: next })
      .where(and(anyOf(subscriptions.userId, held, 'uuid'), eq(subscriptions.nextRetryAt, current)))
      .returning({ userId: subscriptions.userId });
    held = renewed.map((row) => row.userId);
    current = next;
  };
  const timer = setInterval(() => {
    renewing = renewing
      .then(renew)
      .catch((error: unknown) => deps.log.warn({ err: error }, 'billing lease renewal failed'));
  }, deps.leaseRenewalMs ?? LEASE_RENEWAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await renewing;
      return current;
    },
  };
}

/**
 * A reactivation whose request stopped (a crash, a lost connection) after it claimed its period:
 * its charge is sent again with the same key and card, and finished like the request would have.
 */
async function resumeReactivation(
  tx: Transaction,
  deps: BillingDeps,
  userId: string,
  lease: Date,
  now: Date,
): Promise<ClaimedRenewal | null> {
  const [period] = await tx
    .select()
    .from(billingPeriods)
    .where(
      and(
        eq(billingPeriods.userId, userId),
        eq(billingPeriods.kind, 'reactivation'),
        eq(billingPeriods.status, 'due'),
      ),
    )
    .orderBy(desc(billingPeriods.periodStart))
    .limit(1);
  if (!period?.gatewayCustomerId || !period.gatewayPaymentProfileId) {
    // Pending reactivation is only ever set together with its due period and card.
    deps.log.warn({ userId }, 'pending reactivation without its period: back to inactive');
    await setStatus(
      tx,
      userId,
      'pending reactivation',
      'inactive',
      'reactivation abandoned',
      'billing-run',
      now,
    );
    await tx
      .update(subscriptions)
      .set({ nextRetryAt: null, updatedAt: now })
      .where(eq(subscriptions.userId, userId));
    return null;
  }
  await tx
    .update(subscriptions)
    .set({ nextRetryAt: lease, updatedAt: now })
    .where(eq(subscriptions.userId, userId));
  return {
    userId,
    periodId: period.id,
    kind: 'reactivation',
    idempotencyKey: period.idempotencyKey,
    amountCents: period.amountCents,
    customerProfileId: period.gatewayCustomerId,
    paymentProfileId: period.gatewayPaymentProfileId,
    cardBrand: period.cardBrand,
    cardLast4: period.cardLast4,
  };
}

/**
 * Sends one claimed charge. A decline is an outcome; so is a gateway refusal that no retry can
 * change (a card removed since the attempt was claimed, say). A retryable failure leaves the
 * lease to run out, and a later run sends the same request again.
 */
export async function sendCharge(
  deps: Pick<BillingDeps, 'payments' | 'log'>,
  renewal: ClaimedRenewal,
): Promise<Outcome> {
  if (renewal.amountCents === 0) return { status: 'approved', transactionId: 'no-charge' };
  try {
    return await deps.payments.charge({
      customerProfileId: renewal.customerProfileId,
      paymentProfileId: renewal.paymentProfileId,
      amountCents: renewal.amountCents,
      idempotencyKey: renewal.idempotencyKey,
      description:
        renewal.kind === 'reactivation'
          ? 'DealerPass reactivation'
          : 'DealerPass monthly subscription',
    });
  } catch (error) {
    if (error instanceof PaymentGatewayError) {
      if (error.retryable) {
        deps.log.warn({ userId: renewal.userId, code: error.code }, 'charge will be retried');
        return { status: 'retry' };
      }
      return { status: 'declined', reason: error.code };
    }
    throw error;
  }
}

/**
 * Phases 2 and 3: the batch's charges (outside any transaction) with its leases renewed while
 * they run, then their records. The renewals stop before the records: a record clears or moves
 * the lease itself, and a renewal beside its transaction could only contend for the same rows.
 */
async function chargeAndRecord(
  deps: BillingDeps,
  batch: ClaimedBatch,
  result: BillingRunResult,
): Promise<void> {
  const claimed = batch.renewals;
  const leases = keepLeased(
    deps,
    claimed.map((renewal) => renewal.userId),
    batch.lease,
  );
  let outcomes: Outcome[];
  try {
    outcomes = await mapConcurrently(claimed, deps.payments.chargeConcurrency, (renewal) =>
      sendCharge(deps, renewal),
    );
  } finally {
    batch.lease = await leases.stop();
  }
  const approvedRenewals: ApprovedCharge[] = [];
  const retryLater: string[] = [];
  for (const [i, renewal] of claimed.entries()) {
    const outcome = outcomes[i]!;
    if (outcome.status === 'retry') {
      retryLater.push(renewal.userId);
      result.retryLater += 1;
      continue;
    }
    const now = deps.now();
    if (renewal.kind === 'reactivation') {
      await deps.db.transaction((tx) =>
        outcome.status === 'approved'
          ? completeReactivation(tx, deps, renewal, outcome.transactionId, now, 'billing-run')
          : failReactivation(tx, renewal, outcome.reason, now, 'billing-run'),
      );
      if (outcome.status === 'approved') result.charged += 1;
      else result.declined += 1;
      continue;
    }
    if (outcome.status === 'approved') {
      approvedRenewals.push({ renewal, transactionId: outcome.transactionId });
    } else {
      await deps.db.transaction((tx) =>
        recordDecline(tx, deps, renewal.userId, now, outcome.reason, renewal.periodId),
      );
      result.declined += 1;
    }
  }
  if (approvedRenewals.length > 0) {
    const now = deps.now();
    await deps.db.transaction(async (tx) => {
      await preferIndexLookups(tx);
      await recordPayments(tx, deps, approvedRenewals, now);
    });
    result.charged += approvedRenewals.length;
  }
  if (retryLater.length > 0) {
    // The same request goes again later (a later run, after this delay), not every minute.
    await deps.db
      .update(subscriptions)
      .set({ nextRetryAt: new Date(deps.now().getTime() + RETRYABLE_FAILURE_DELAY_MS) })
      .where(
        and(
          anyOf(subscriptions.userId, retryLater, 'uuid'),
          eq(subscriptions.nextRetryAt, batch.lease),
        ),
      );
  }
}

/**
 * A batch's statements find their rows by key (`= any($ids)`, joins on `unnest`). PostgreSQL's
 * default random_page_cost (4, for spinning disks) prices a batch of index lookups above a scan of the
 * whole table, which would make each batch cost as much as the table is large. The run's rows
 * are hot in memory, so its transactions price index lookups as such.
 */
async function preferIndexLookups(tx: Transaction): Promise<void> {
  await tx.execute(sql`set local random_page_cost = 1.1`);
}

async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

/**
 * A reactivation's charge was approved (R4): the account is active again, its new cycle starts on
 * the period's first day, and the payment is recorded (it pays the balance it carried). Does
 * nothing if the request or another run finished it first.
 */
export async function completeReactivation(
  tx: Transaction,
  deps: BillingDeps,
  renewal: ClaimedRenewal,
  transactionId: string,
  now: Date,
  actor: string,
): Promise<void> {
  const [user] = await tx.select().from(users).where(eq(users.id, renewal.userId)).for('update');
  const [period] = await tx
    .select()
    .from(billingPeriods)
    .where(eq(billingPeriods.id, renewal.periodId));
  if (
    !user ||
    !period ||
    period.status !== 'due' ||
    user.accountStatus !== 'pending reactivation'
  ) {
    return;
  }
  await setStatus(tx, user.id, 'pending reactivation', 'active', 'reactivation paid', actor, now);
  await tx
    .update(subscriptions)
    .set({
      cycleAnchor: period.periodStart,
      cancelRequestedAt: null,
      failedAttempts: 0,
      updatedAt: now,
    })
    .where(eq(subscriptions.userId, user.id));
  await recordPayment(tx, deps, renewal, transactionId, now);
}

/**
 * A reactivation's charge was declined (or refused): the period's attempt is closed with a new
 * key for any later try (the same key would answer this decline again), and the account is
 * inactive again. Does nothing if it was finished first.
 */
export async function failReactivation(
  tx: Transaction,
  renewal: ClaimedRenewal,
  reason: string,
  now: Date,
  actor: string,
): Promise<void> {
  const [user] = await tx.select().from(users).where(eq(users.id, renewal.userId)).for('update');
  const [period] = await tx
    .select()
    .from(billingPeriods)
    .where(eq(billingPeriods.id, renewal.periodId))
    .for('update');
  if (
    !user ||
    !period ||
    period.status !== 'due' ||
    user.accountStatus !== 'pending reactivation'
  ) {
    return;
  }
  await tx
    .update(billingPeriods)
    .set({ status: 'failed', settledAt: now, ...nextAttempt(period) })
    .where(eq(billingPeriods.id, period.id));
  await tx
    .update(subscriptions)
    .set({ nextRetryAt: null, updatedAt: now })
    .where(eq(subscriptions.userId, user.id));
  await setStatus(
    tx,
    user.id,
    'pending reactivation',
    'inactive',
    `reactivation declined: ${reason}`,
    actor,
    now,
  );
}

/** Records an approved charge of a period: payment row, stored receipt, period paid, next period, mail. */
export async function recordPayment(
  tx: Transaction,
  deps: BillingDeps,
  renewal: ClaimedRenewal,
  transactionId: string,
  now: Date,
): Promise<void> {
  await recordPayments(tx, deps, [{ renewal, transactionId }], now);
}

/**
 * One successful charge as it is stored: the payment row with its receipt (rendered here, once,
 * with its CRC-32) and the receipt's e-mail. Shared by the billing run and the demo seed's
 * history.
 */
export function paymentRecord(input: {
  company: BillingDeps['company'];
  user: typeof users.$inferSelect;
  period: Pick<
    typeof billingPeriods.$inferSelect,
    'id' | 'periodStart' | 'periodEnd' | 'amountCents' | 'quote'
  >;
  card: { brand: string | null; last4: string | null };
  transactionId: string;
  /** The payment's business date (YYYY-MM-DD). */
  activationDate: string;
  now: Date;
}): { row: typeof payments.$inferInsert; mail: MailToSend } {
  const { company, user, period, card, activationDate } = input;
  const priced = period.quote as IQuote;
  const paymentId = crypto.randomUUID();
  // One period and one card, in the PDF and in its e-mail alike.
  const shownPeriod = billingPeriodShown(period.periodStart, period.periodEnd);
  const receiptPdf = renderReceiptPdf({
    company,
    account: {
      dealerpassUserId: user.dealerpassUserId,
      name: `${user.firstName} ${user.lastName}`,
      email: user.email,
    },
    dealership: {
      name: user.dealership,
      address: {
        line1: user.address1,
        line2: user.address2,
        city: user.city,
        state: user.state,
        postalCode: user.zip,
        country: user.country,
      },
    },
    period: shownPeriod,
    lines: priced.lines,
    platformFeeCents: priced.platformFeeCents,
    totalCents: priced.totalCents,
    card: { brand: cardBrandName(card.brand), lastFour: card.last4 ?? '----' },
    paymentDate: activationDate,
    paymentId,
    issuedAt: input.now,
  });
  return {
    row: {
      id: paymentId,
      userId: user.id,
      billingPeriodId: period.id,
      amountCents: period.amountCents,
      gatewayTransactionId: input.transactionId,
      cardBrand: card.brand ?? 'card',
      cardLast4: card.last4 ?? '',
      activationDate,
      receiptPdf,
      receiptCrc32: receiptCrc32(receiptPdf),
    },
    mail: {
      to: user.email,
      subject: `${company.name} receipt for ${activationDate}`,
      text: [
        `Hello ${user.firstName},`,
        '',
        `We charged ${formatCurrency(period.amountCents)} to your ${paidWithText(card.brand, card.last4)} for ${billingPeriodText(shownPeriod)}.`,
        `Your receipt (payment ${paymentId}) is attached, and is under Billing Details, Payment History, in your account.`,
        '',
        `Questions? Call ${company.supportPhone}.`,
      ].join('\n'),
      receiptPaymentId: paymentId,
    },
  };
}

/**
 * Records approved charges in one transaction, with a few multi-row statements for the whole
 * batch: a payment row with its receipt (made once, here, with its CRC-32) per period, the
 * periods paid, the accounts' next periods, the receipts' e-mails. A period already paid (by an
 * earlier run that crashed after its record) is skipped; the unique payment per period is the
 * last guard.
 */
export async function recordPayments(
  tx: Transaction,
  deps: BillingDeps,
  charges: readonly ApprovedCharge[],
  now: Date,
): Promise<void> {
  if (charges.length === 0) return;
  const periodIds = charges.map((charge) => charge.renewal.periodId);
  const periodRows = await tx
    .select()
    .from(billingPeriods)
    .where(anyOf(billingPeriods.id, periodIds, 'uuid'))
    .orderBy(billingPeriods.id)
    .for('update');
  const userRows = await tx
    .select()
    .from(users)
    .where(
      anyOf(
        users.id,
        charges.map((charge) => charge.renewal.userId),
        'uuid',
      ),
    );
  const periodOf = new Map(periodRows.map((row) => [row.id, row]));
  const userOf = new Map(userRows.map((row) => [row.id, row]));
  const activationDate = toIsoDate(calendarDateIn(now, deps.timeZone));

  const rows: (typeof payments.$inferInsert)[] = [];
  const mails: MailToSend[] = [];
  const settled: { period: (typeof periodRows)[number]; user: (typeof userRows)[number] }[] = [];
  for (const [i, { renewal, transactionId }] of charges.entries()) {
    // Receipts are the run's longest stretch of plain computing (a batch's take about 100 ms):
    // the scheduled run shares its process with the web server, whose requests, like the other
    // batches' statements, are answered in between.
    if (i > 0 && i % RECEIPTS_BETWEEN_YIELDS === 0) await setImmediatePromise();
    const period = periodOf.get(renewal.periodId);
    const user = userOf.get(renewal.userId);
    if (!period || !user) throw new Error('period or user vanished');
    if (period.status === 'paid') continue; // recorded by an earlier run
    const { row, mail } = paymentRecord({
      company: deps.company,
      user,
      period,
      card: {
        brand: renewal.cardBrand ?? period.cardBrand ?? user.cardBrand,
        last4: renewal.cardLast4 ?? period.cardLast4 ?? user.cardLast4,
      },
      transactionId,
      activationDate,
      now,
    });
    rows.push(row);
    mails.push(mail);
    settled.push({ period, user });
  }
  if (rows.length === 0) return;
  const paid = unnestRows(rows, {
    id: ['uuid', (row) => row.id],
    user_id: ['uuid', (row) => row.userId],
    billing_period_id: ['uuid', (row) => row.billingPeriodId],
    amount_cents: ['int', (row) => row.amountCents],
    gateway_transaction_id: ['text', (row) => row.gatewayTransactionId],
    card_brand: ['text', (row) => row.cardBrand],
    card_last4: ['text', (row) => row.cardLast4],
    activation_date: ['date', (row) => row.activationDate],
    receipt_pdf: ['bytea', (row) => row.receiptPdf],
    receipt_crc32: ['bigint', (row) => row.receiptCrc32],
  });
  const inserted = (await tx.execute(sql`
    insert into ${payments} (${paid.names}) ${paid.select}
    on conflict (billing_period_id) do nothing
    returning billing_period_id`)) as unknown as { rows: { billing_period_id: string }[] };
  const recorded = new Set(inserted.rows.map((row) => row.billing_period_id));
  if (recorded.size === 0) return;
  const done = settled.filter(({ period }) => recorded.has(period.id));
  // The balance follows: each period's charge (if a decline has not recorded it already) and
  // its payment.
  await addBalanceEntries(
    tx,
    rows
      .filter((row) => recorded.has(row.billingPeriodId))
      .flatMap((row): BalanceEntry[] => [
        periodChargeEntry(periodOf.get(row.billingPeriodId)!),
        {
          userId: row.userId,
          kind: 'payment',
          amountCents: -row.amountCents,
          source: `payment:${row.id!}`,
        },
      ]),
    now,
  );
  await tx
    .update(billingPeriods)
    .set({ status: 'paid', settledAt: now })
    .where(anyOf(billingPeriods.id, [...recorded], 'uuid'));
  await advancePeriods(
    tx,
    done.map(({ period }) => ({
      userId: period.userId,
      periodStart: period.periodStart,
      periodEnd: period.periodEnd,
    })),
    now,
  );
  for (const { user } of done) {
    if (user.accountStatus !== 'active') {
      await setStatus(
        tx,
        user.id,
        user.accountStatus,
        'active',
        'renewal paid',
        'billing-run',
        now,
      );
    }
  }
  await enqueueMails(
    tx,
    mails.filter((_, i) => recorded.has(settled[i]!.period.id)),
    deps.mailKind,
  );
}

/** R4 dunning: retry after 1, 3 and 5 days, an e-mail each time; after the last failure, inactive with the balance owed. */
async function recordDecline(
  tx: Transaction,
  deps: BillingDeps,
  userId: string,
  now: Date,
  reason: string,
  periodId?: string,
): Promise<void> {
  const [subscription] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .for('update');
  const [user] = await tx.select().from(users).where(eq(users.id, userId));
  if (!subscription || !user) throw new Error('subscription or user vanished');
  const failures = subscription.failedAttempts + 1;
  const retryDays = PAYMENT_RETRY_DAYS[failures - 1];
  const [period] = periodId
    ? await tx.select().from(billingPeriods).where(eq(billingPeriods.id, periodId))
    : [];
  // The renewal was due and is not paid: it is owed from now until a payment settles it.
  if (period) await addBalanceEntries(tx, [periodChargeEntry(period)], now);

  if (
    period?.gatewayPaymentProfileId &&
    subscription.gatewayPaymentProfileId &&
    period.gatewayPaymentProfileId !== subscription.gatewayPaymentProfileId
  ) {
    // The attempt charged a card replaced since it was claimed (a retry after a crash): the
    // new card is tried at once as a new attempt, and the old card's answer counts for nothing.
    await tx
      .update(billingPeriods)
      .set(nextAttempt(period))
      .where(eq(billingPeriods.id, period.id));
    await tx
      .update(subscriptions)
      .set({ nextRetryAt: now, updatedAt: now })
      .where(eq(subscriptions.userId, userId));
    return;
  }

  if (retryDays !== undefined) {
    await tx
      .update(subscriptions)
      .set({
        failedAttempts: failures,
        nextRetryAt: new Date(now.getTime() + retryDays * DAY_MS),
        updatedAt: now,
      })
      .where(eq(subscriptions.userId, userId));
    if (period) {
      // The next try is a new charge: a new attempt number, so a new idempotency key.
      await tx
        .update(billingPeriods)
        .set(nextAttempt(period))
        .where(eq(billingPeriods.id, period.id));
    }
    if (user.accountStatus !== 'validating payment') {
      await setStatus(
        tx,
        userId,
        user.accountStatus,
        'validating payment',
        `renewal declined: ${reason}`,
        'billing-run',
        now,
      );
    }
    await enqueueMail(
      tx,
      {
        to: user.email,
        subject: `${deps.company.name}: we could not charge your card`,
        text: [
          `Hello ${user.firstName},`,
          '',
          `Your ${deps.company.name} renewal could not be charged (${reason}). We will try again in ${retryDays} day${retryDays === 1 ? '' : 's'}.`,
          'To avoid an interruption, update your card under Billing Details in your account; we retry at once when you do.',
          '',
          `Questions? Call ${deps.company.supportPhone}.`,
        ].join('\n'),
      },
      deps.mailKind,
    );
    return;
  }

  await tx
    .update(subscriptions)
    .set({ failedAttempts: failures, nextRetryAt: null, updatedAt: now })
    .where(eq(subscriptions.userId, userId));
  if (period)
    await tx
      .update(billingPeriods)
      .set({ status: 'failed', settledAt: now })
      .where(eq(billingPeriods.id, period.id));
  const owed = await getBalanceCents(tx, userId);
  await setStatus(
    tx,
    userId,
    user.accountStatus,
    'inactive',
    `last retry declined: ${reason}`,
    'billing-run',
    now,
  );
  await enqueueMail(
    tx,
    {
      to: user.email,
      subject: `${deps.company.name}: your account is inactive`,
      text: [
        `Hello ${user.firstName},`,
        '',
        `We could not charge your card after several tries, so your ${deps.company.name} account is now inactive. ${formatCurrency(owed)} remains owed.`,
        'You can reactivate it any time under Billing Details with a new card.',
        '',
        `Questions? Call ${deps.company.supportPhone}.`,
      ].join('\n'),
    },
    deps.mailKind,
  );
}

async function advancePeriod(
  tx: Transaction,
  userId: string,
  periodEnd: string,
  periodStart: string,
  now: Date,
) {
  await advancePeriods(tx, [{ userId, periodStart, periodEnd }], now);
}

/** The accounts' next periods after a paid or waived one: two statements for any number. */
async function advancePeriods(
  tx: Transaction,
  moves: readonly { userId: string; periodStart: string; periodEnd: string }[],
  now: Date,
) {
  if (moves.length === 0) return;
  const moved = unnestRows(moves, {
    user_id: ['uuid', (move) => move.userId],
    period_start: ['date', (move) => move.periodStart],
    period_end: ['date', (move) => move.periodEnd],
  });
  await tx.execute(sql`
    update ${subscriptions} set
      current_period_start = moved.period_start,
      current_period_end = moved.period_end,
      failed_attempts = 0,
      next_retry_at = null,
      updated_at = ${now}
    from (${moved.select}) as moved
    where ${subscriptions.userId} = moved.user_id`);
  await tx.execute(sql`
    update ${users} set next_bill_date = moved.period_end, updated_at = ${now}
    from (${moved.select}) as moved
    where ${users.id} = moved.user_id`);
}

/**
 * A period's next attempt: a new charge, so a new idempotency key (the old key would answer the
 * old outcome), and no card until the attempt is claimed: it charges the card on file then.
 */
function nextAttempt(period: {
  userId: string;
  kind: string;
  periodStart: string;
  attempt: number;
}) {
  const attempt = period.attempt + 1;
  return {
    attempt,
    idempotencyKey: `${period.kind}:${period.userId}:${period.periodStart}:${attempt}`,
    gatewayCustomerId: null,
    gatewayPaymentProfileId: null,
    cardBrand: null,
    cardLast4: null,
  };
}

/** Every status change goes through here, with its audit record (issue 5). */
export async function setStatus(
  tx: Transaction,
  userId: string,
  from: string,
  to: TAccountStatus,
  event: string,
  actor: string,
  now: Date,
): Promise<void> {
  await tx.update(users).set({ accountStatus: to, updatedAt: now }).where(eq(users.id, userId));
  await tx.insert(accountEvents).values({
    userId,
    event,
    fromStatus: from,
    toStatus: to,
    actor,
    at: now,
    details: { description: STATUS_DESCRIPTIONS[to] },
  });
}
