import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { quote, type IQuote } from '@dealerpass/domain/prices';
import { formatCurrency } from '@dealerpass/domain/money';
import { nextBillDate, PAYMENT_RETRY_DAYS } from '@dealerpass/domain/billing/renewal-calendar';
import { calendarDateIn, parseIsoDate, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import {
  COMPLIMENTARY_DETAIL,
  STATUS_DESCRIPTIONS,
  type TAccountStatus,
} from '@dealerpass/domain/account/status';
import type { PaymentGateway } from '../../adapters/payments/payment-gateway.ts';
import { PaymentGatewayError } from '../../adapters/payments/payment-gateway.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { accountEvents, billingPeriods, payments, subscriptions, users } from '../../db/schema.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { renderReceiptPdf } from '../receipts/render-receipt.ts';

/** While a renewal's charge is in flight no other run touches the account; after a crash it is retried then. */
export const CHARGE_LEASE_MS = 10 * 60 * 1000;
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
  idempotencyKey: string;
  amountCents: number;
  customerProfileId: string;
  paymentProfileId: string;
}

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
 * - a period exists once per account (unique user + period start), created before any charge;
 * - the gateway call carries the period attempt's idempotency key, the same on every retry, so
 *   a rerun after a crash between the charge and its record gets the first answer back;
 * - the payment row is unique per period.
 */
export async function runBilling(
  deps: BillingDeps,
  options: {
    batchSize?: number;
    /** Only this account (a new card's immediate retry, R4). */ userId?: string;
  } = {},
): Promise<BillingRunResult> {
  const result: BillingRunResult = { charged: 0, declined: 0, deactivated: 0, retryLater: 0 };
  for (;;) {
    const claimed = await claimDueAccounts(deps, options.batchSize ?? 200, result, options.userId);
    if (claimed === null) break;
    for (const renewal of claimed) {
      await chargeRenewal(deps, renewal, result);
    }
  }
  return result;
}

/** Phase 1, in one transaction: lock a batch of due accounts, end cancellations, open periods. */
async function claimDueAccounts(
  deps: BillingDeps,
  batchSize: number,
  result: BillingRunResult,
  onlyUserId?: string,
): Promise<ClaimedRenewal[] | null> {
  const now = deps.now();
  const today = toIsoDate(calendarDateIn(now, deps.timeZone));
  return deps.db.transaction(async (tx) => {
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
      })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(
        and(
          lte(subscriptions.currentPeriodEnd, today),
          or(isNull(subscriptions.nextRetryAt), lte(subscriptions.nextRetryAt, now)),
          sql`${users.accountStatus} in ('active', 'pending cancel', 'validating payment')`,
          onlyUserId ? eq(subscriptions.userId, onlyUserId) : undefined,
        ),
      )
      .orderBy(subscriptions.currentPeriodEnd)
      .limit(batchSize)
      .for('update', { of: subscriptions, skipLocked: true });
    if (due.length === 0) return null;

    const renewals: ClaimedRenewal[] = [];
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
      if (!account.customerProfileId || !account.paymentProfileId) {
        // No card on file: the renewal cannot be charged; treated as a declined charge.
        await recordDecline(tx, deps, account.userId, now, 'no card on file');
        result.declined += 1;
        continue;
      }
      const periodStart = isoDate(account.periodStart);
      const periodEnd = toIsoDate(nextBillDate(isoDate(account.cycleAnchor), periodStart));
      const priced: IQuote = quote(account.codes as TSubscriptionCode[], now);
      await tx
        .insert(billingPeriods)
        .values({
          userId: account.userId,
          kind: 'renewal',
          periodStart: account.periodStart,
          periodEnd,
          amountCents: priced.totalCents,
          quote: priced,
          idempotencyKey: `renewal:${account.userId}:${account.periodStart}:1`,
        })
        .onConflictDoNothing({ target: [billingPeriods.userId, billingPeriods.periodStart] });
      const [period] = await tx
        .select()
        .from(billingPeriods)
        .where(
          and(
            eq(billingPeriods.userId, account.userId),
            eq(billingPeriods.periodStart, account.periodStart),
          ),
        );
      if (!period) throw new Error('billing period vanished');
      if (period.status === 'paid') {
        // A crash after the payment was recorded but before the period advanced: finish that step.
        await advancePeriod(tx, account.userId, period.periodEnd, period.periodStart, now);
        continue;
      }
      await tx
        .update(subscriptions)
        .set({ nextRetryAt: new Date(now.getTime() + CHARGE_LEASE_MS), updatedAt: now })
        .where(eq(subscriptions.userId, account.userId));
      renewals.push({
        userId: account.userId,
        periodId: period.id,
        idempotencyKey: period.idempotencyKey,
        amountCents: period.amountCents,
        customerProfileId: account.customerProfileId,
        paymentProfileId: account.paymentProfileId,
      });
    }
    return renewals;
  });
}

/** Phase 2 and 3: the charge (outside any transaction), then its record (in one). */
async function chargeRenewal(
  deps: BillingDeps,
  renewal: ClaimedRenewal,
  result: BillingRunResult,
): Promise<void> {
  let outcome: Awaited<ReturnType<PaymentGateway['charge']>>;
  try {
    outcome =
      renewal.amountCents === 0
        ? { status: 'approved', transactionId: 'no-charge' }
        : await deps.payments.charge({
            customerProfileId: renewal.customerProfileId,
            paymentProfileId: renewal.paymentProfileId,
            amountCents: renewal.amountCents,
            idempotencyKey: renewal.idempotencyKey,
            description: 'DealerPass monthly subscription',
          });
  } catch (error) {
    if (error instanceof PaymentGatewayError && error.retryable) {
      // The lease runs out and a later run tries again with the same key.
      deps.log.warn({ userId: renewal.userId, code: error.code }, 'renewal charge will be retried');
      result.retryLater += 1;
      return;
    }
    throw error;
  }
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    if (outcome.status === 'approved') {
      await recordPayment(tx, deps, renewal, outcome.transactionId, now);
      result.charged += 1;
    } else {
      await recordDecline(tx, deps, renewal.userId, now, outcome.reason, renewal.periodId);
      result.declined += 1;
    }
  });
}

/** Records an approved charge of a period: payment row, stored receipt, period paid, next period, mail. */
export async function recordPayment(
  tx: Transaction,
  deps: BillingDeps,
  renewal: ClaimedRenewal,
  transactionId: string,
  now: Date,
): Promise<void> {
  const [period] = await tx
    .select()
    .from(billingPeriods)
    .where(eq(billingPeriods.id, renewal.periodId))
    .for('update');
  const [user] = await tx.select().from(users).where(eq(users.id, renewal.userId));
  if (!period || !user) throw new Error('period or user vanished');
  if (period.status === 'paid') return; // recorded by an earlier run
  const activationDate = toIsoDate(calendarDateIn(now, deps.timeZone));
  const priced = period.quote as IQuote;
  const paymentId = crypto.randomUUID();
  const receiptPdf = renderReceiptPdf({
    company: deps.company,
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
    period: { from: period.periodStart, to: toIsoDate(dayBefore(isoDate(period.periodEnd))) },
    lines: priced.lines,
    platformFeeCents: priced.platformFeeCents,
    totalCents: priced.totalCents,
    card: { brand: user.cardBrand ?? 'Card', lastFour: user.cardLast4 ?? '----' },
    paymentDate: activationDate,
    paymentId,
    issuedAt: now,
  });
  const inserted = await tx
    .insert(payments)
    .values({
      id: paymentId,
      userId: user.id,
      billingPeriodId: period.id,
      amountCents: period.amountCents,
      gatewayTransactionId: transactionId,
      cardBrand: user.cardBrand ?? 'card',
      cardLast4: user.cardLast4 ?? '',
      activationDate,
      receiptPdf,
    })
    .onConflictDoNothing({ target: payments.billingPeriodId })
    .returning({ id: payments.id });
  if (inserted.length === 0) return;
  await tx
    .update(billingPeriods)
    .set({ status: 'paid', settledAt: now })
    .where(eq(billingPeriods.id, period.id));
  await advancePeriod(tx, user.id, period.periodEnd, period.periodStart, now);
  if (user.accountStatus !== 'active') {
    await setStatus(tx, user.id, user.accountStatus, 'active', 'renewal paid', 'billing-run', now);
  }
  await enqueueMail(
    tx,
    {
      to: user.email,
      subject: `${deps.company.name} receipt for ${activationDate}`,
      text: [
        `Hello ${user.firstName},`,
        '',
        `We charged ${formatCurrency(period.amountCents)} to your ${user.cardBrand ?? 'card'} ending in ${user.cardLast4 ?? '----'} for ${period.periodStart} to ${period.periodEnd}.`,
        `Your receipt (payment ${paymentId}) is under Billing Details, Payment History, in your account.`,
        '',
        `Questions? Call ${deps.company.supportPhone}.`,
      ].join('\n'),
    },
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
      const attempt = period.attempt + 1;
      await tx
        .update(billingPeriods)
        .set({ attempt, idempotencyKey: `renewal:${userId}:${period.periodStart}:${attempt}` })
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

  const owed = period?.amountCents ?? 0;
  await tx
    .update(subscriptions)
    .set({ failedAttempts: failures, nextRetryAt: null, updatedAt: now })
    .where(eq(subscriptions.userId, userId));
  if (period)
    await tx
      .update(billingPeriods)
      .set({ status: 'failed', settledAt: now })
      .where(eq(billingPeriods.id, period.id));
  await tx
    .update(users)
    .set({ balanceCents: sql`${users.balanceCents} + ${owed}`, updatedAt: now })
    .where(eq(users.id, userId));
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
  await tx
    .update(subscriptions)
    .set({
      currentPeriodStart: periodStart,
      currentPeriodEnd: periodEnd,
      failedAttempts: 0,
      nextRetryAt: null,
      updatedAt: now,
    })
    .where(eq(subscriptions.userId, userId));
  await tx
    .update(users)
    .set({ nextBillDate: periodEnd, updatedAt: now })
    .where(eq(users.id, userId));
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

function dayBefore(date: ReturnType<typeof isoDate>) {
  const instant = Date.UTC(date.year, date.month - 1, date.day) - DAY_MS;
  const d = new Date(instant);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}
