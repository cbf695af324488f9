import { nextScheduledRetry, scheduledAttempts } from '@dealerpass/domain/billing/dunning';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import { accountStatusDetailsOf } from '@dealerpass/domain/account/status';
import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { TStaffAccountDetail } from '@dealerpass/domain/admin/console-views';
import type { Database } from '../../../db/client.ts';
import {
  accountEvents,
  paymentDeclines,
  balanceEntries,
  billingPeriods,
  carfaxConnections,
  identities,
  mailOutbox,
  payments,
  refunds,
  sessions,
  subscriptionChanges,
  subscriptions,
  users,
} from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import { getBalanceCents } from '../../billing/account-balance.ts';
import { refundableCentsSql, staffRefundedCentsSql } from '../../billing/payment-refunds.ts';
import { cancellationTakesEffectShown, nextBillDateShown } from '../../users/serialize-user.ts';
import { accountAddresses, receiptPath } from './account-records.ts';
import { annualPeriodOf, listAccountInvoices } from '../../annual-billing/invoice-records.ts';

/** Rows per list on the account page: enough for years of monthly billing, bounded all the same. */
const LIST_LIMIT = 200;

const iso = (value: Date | null) => value?.toISOString() ?? null;

type Detail = TStaffAccountDetail;

/** What every section reads from: the account's row and subscription, and the rows two share. */
interface AccountContext {
  db: Database;
  userId: string;
  user: typeof users.$inferSelect;
  subscription: typeof subscriptions.$inferSelect | undefined;
  clock: { now: Date; timeZone: string };
  carfax: Promise<{ connectedAt: Date }[]>;
  changes: Promise<(typeof subscriptionChanges.$inferSelect)[]>;
}

/**
 * Everything the console's account page shows (R12, docs/decisions/026), read-only and without
 * a secret: the card as brand, last four and expiry; AutoCheck's password and Carfax's tokens as
 * booleans; sessions without their ids; e-mails by subject and status (bodies carry links).
 * One named section per part of the page, read concurrently: a new part is its reader and one
 * line here.
 */
export async function getAccountDetail(
  db: Database,
  userId: string,
  clock: { now: Date; timeZone: string },
): Promise<Detail> {
  const account = await loadAccount(db, userId, clock);
  return allSections<Detail>({
    profile: readProfile(account),
    status: readStatus(account),
    subscription: readSubscription(account),
    changes: readChanges(account),
    payments: readPayments(account),
    refunds: readRefunds(account),
    declines: readDeclines(account),
    retries: readRetries(account),
    balance: readBalance(account),
    sessions: readSessions(account),
    integrations: readIntegrations(account),
    emails: readEmails(account),
    invoices: listAccountInvoices(db, userId),
    annualPeriod: Promise.resolve(
      annualPeriodOf(
        account.subscription ?? null,
        toIsoDate(calendarDateIn(clock.now, clock.timeZone)),
      ),
    ),
  });
}

/** Awaits every section at once and keeps each under its name. */
async function allSections<T extends object>(sections: {
  [K in keyof T]: Promise<T[K]>;
}): Promise<T> {
  const names = Object.keys(sections) as (keyof T)[];
  const values = await Promise.all(names.map((name) => sections[name]));
  return Object.fromEntries(names.map((name, i) => [name, values[i]])) as T;
}

async function loadAccount(
  db: Database,
  userId: string,
  clock: AccountContext['clock'],
): Promise<AccountContext> {
  const [[user], [subscription]] = await Promise.all([
    db.select().from(users).where(eq(users.id, userId)),
    db.select().from(subscriptions).where(eq(subscriptions.userId, userId)),
  ]);
  if (!user) throw new AppError(ERROR_CODES.NOT_FOUND);
  // Read once (`then` starts each query now) for the two sections that show them.
  return {
    db,
    userId,
    user,
    subscription,
    clock,
    carfax: db
      .select({ connectedAt: carfaxConnections.connectedAt })
      .from(carfaxConnections)
      .where(eq(carfaxConnections.userId, userId))
      .then((rows) => rows),
    changes: db
      .select()
      .from(subscriptionChanges)
      .where(eq(subscriptionChanges.userId, userId))
      .orderBy(desc(subscriptionChanges.createdAt))
      .limit(LIST_LIMIT)
      .then((rows) => rows),
  };
}

async function readProfile({ db, user, carfax }: AccountContext): Promise<Detail['profile']> {
  const [identity, connections] = await Promise.all([
    user.karId
      ? db
          .select({
            passwordSet: sql<boolean>`${identities.passwordHash} is not null`,
            emailVerified: identities.emailVerified,
          })
          .from(identities)
          .where(eq(identities.id, user.karId))
          .then((rows) => rows[0] ?? null)
      : null,
    carfax,
  ]);
  return {
    userId: user.id,
    dealerpassUserId: user.dealerpassUserId,
    karId: user.karId,
    legacyUsername: user.legacyUsername,
    email: user.email,
    altEmail: user.altEmail,
    firstName: user.firstName,
    lastName: user.lastName,
    dealership: user.dealership,
    phone: user.phone,
    altPhone: user.altPhone,
    address1: user.address1,
    address2: user.address2,
    city: user.city,
    state: user.state,
    zip: user.zip,
    country: user.country,
    createdAt: user.createdAt.toISOString(),
    card: user.cardLast4
      ? { brand: user.cardBrand, last4: user.cardLast4, expiration: user.cardExpiration }
      : null,
    autoCheckPasswordSet: Boolean(user.autoCheckPasswordEnc),
    carfaxConnected: connections.length > 0,
    identity,
  };
}

async function readStatus({
  db,
  userId,
  user,
  subscription: sub,
  clock,
}: AccountContext): Promise<Detail['status']> {
  const history = await db
    .select()
    .from(accountEvents)
    .where(eq(accountEvents.userId, userId))
    .orderBy(desc(accountEvents.at))
    .limit(LIST_LIMIT);
  return {
    accountStatus: user.accountStatus,
    accountStatusDetails: accountStatusDetailsOf(user),
    // The domain's next bill date, the one the dealer's Billing and change pages show (issue 25
    // item 11): past an unpaid renewal's date it is the bill date after it.
    nextBillDate: nextBillDateShown(
      { ...user, billingCycle: sub ?? null },
      calendarDateIn(clock.now, clock.timeZone),
    ),
    cancellationTakesEffect: cancellationTakesEffectShown(
      { ...user, billingCycle: sub ?? null },
      calendarDateIn(clock.now, clock.timeZone),
    ),
    history: history.map((row) => ({
      at: row.at.toISOString(),
      event: row.event,
      fromStatus: row.fromStatus,
      toStatus: row.toStatus,
      actor: row.actor,
    })),
  };
}

async function readSubscription({
  user,
  subscription: sub,
}: AccountContext): Promise<Detail['subscription']> {
  if (!sub) return null;
  return {
    codes: sub.codes,
    autoExtras: sub.autoExtras,
    pendingRemovals: sub.pendingRemovals,
    pendingRemovalsAt: sub.pendingRemovalsAt,
    cycleAnchor: sub.cycleAnchor,
    currentPeriodStart: sub.currentPeriodStart,
    currentPeriodEnd: sub.currentPeriodEnd,
    failedAttempts: sub.failedAttempts,
    nextRetryAt: iso(sub.nextRetryAt),
    cancelRequestedAt: iso(sub.cancelRequestedAt),
    // R4's dunning figures from the domain (issue 25: one source for each).
    scheduledAttempts: scheduledAttempts(sub.failedAttempts),
    nextScheduledRetryAt: iso(
      nextScheduledRetry(user.accountStatus, sub.failedAttempts, sub.nextRetryAt),
    ),
  };
}

async function readChanges({ changes }: AccountContext): Promise<Detail['changes']> {
  return (await changes).map((change) => ({
    id: change.id,
    status: change.status,
    codesBefore: change.codesBefore,
    codesRequested: change.codesRequested,
    amountCents: change.amountCents,
    declineReason: change.declineReason,
    createdAt: change.createdAt.toISOString(),
    settledAt: iso(change.settledAt),
  }));
}

async function readPayments({ db, userId }: AccountContext): Promise<Detail['payments']> {
  const rows = await db
    .select({
      id: payments.id,
      activationDate: payments.activationDate,
      amountCents: payments.amountCents,
      status: payments.status,
      cardBrand: payments.cardBrand,
      cardLast4: payments.cardLast4,
      gatewayTransactionId: payments.gatewayTransactionId,
      createdAt: payments.createdAt,
      refundedCents: staffRefundedCentsSql(),
      refundableCents: refundableCentsSql(),
      chargedBackAt: payments.chargedBackAt,
    })
    .from(payments)
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt))
    .limit(LIST_LIMIT);
  return rows.map((row) => ({
    paymentId: row.id,
    activationDate: row.activationDate,
    amountCents: row.amountCents,
    refundedCents: row.status === 'refunded' ? row.amountCents : Number(row.refundedCents),
    refundableCents: Number(row.refundableCents),
    chargedBackAt: iso(row.chargedBackAt),
    status: row.status,
    cardBrand: row.cardBrand,
    cardLast4: row.cardLast4,
    gatewayTransactionId: row.gatewayTransactionId,
    createdAt: row.createdAt.toISOString(),
    receiptUrl: receiptPath(userId, row.id),
  }));
}

async function readRefunds({ db, userId }: AccountContext): Promise<Detail['refunds']> {
  const rows = await db
    .select()
    .from(refunds)
    .where(eq(refunds.userId, userId))
    .orderBy(desc(refunds.createdAt))
    .limit(LIST_LIMIT);
  return rows.map((row) => ({
    refundId: row.id,
    paymentId: row.paymentId,
    amountCents: row.amountCents,
    status: row.status,
    reason: row.reason,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    settledAt: iso(row.settledAt),
  }));
}

/**
 * Every declined charge, newest first: the run's and staff's declines (one row per attempt, with
 * the gateway's reason) and the declined prorated charges of subscription changes.
 */
async function readDeclines({ db, userId, changes }: AccountContext): Promise<Detail['declines']> {
  const [rows, changeRows] = await Promise.all([
    db
      .select()
      .from(paymentDeclines)
      .where(eq(paymentDeclines.userId, userId))
      .orderBy(desc(paymentDeclines.at), desc(paymentDeclines.attempt))
      .limit(LIST_LIMIT),
    changes,
  ]);
  const declines: Detail['declines'] = rows.map((row) => ({
    at: row.at.toISOString(),
    kind: row.kind,
    attempt: row.attempt,
    reason: row.reason,
  }));
  for (const change of changeRows) {
    if (change.status === 'declined')
      declines.push({
        at: (change.settledAt ?? change.createdAt).toISOString(),
        kind: 'change',
        attempt: null,
        reason: change.declineReason ?? 'declined',
      });
  }
  return declines.sort((a, b) => b.at.localeCompare(a.at));
}

async function readRetries({ db, userId }: AccountContext): Promise<Detail['retries']> {
  const periods = await db
    .select()
    .from(billingPeriods)
    .where(
      and(
        eq(billingPeriods.userId, userId),
        or(eq(billingPeriods.status, 'failed'), sql`${billingPeriods.attempt} > 1`),
      ),
    )
    .orderBy(desc(billingPeriods.periodStart))
    .limit(LIST_LIMIT);
  return periods.map((period) => ({
    periodId: period.id,
    kind: period.kind,
    periodStart: period.periodStart,
    periodEnd: period.periodEnd,
    amountCents: period.amountCents,
    status: period.status,
    // Charges sent for the period, staff retries included: a period still due has its next
    // attempt's number, not yet tried.
    attempts: period.status === 'due' ? period.attempt - 1 : period.attempt,
  }));
}

async function readBalance({ db, userId }: AccountContext): Promise<Detail['balance']> {
  const [cents, entries] = await Promise.all([
    getBalanceCents(db, userId),
    db
      .select()
      .from(balanceEntries)
      .where(eq(balanceEntries.userId, userId))
      .orderBy(desc(balanceEntries.at))
      .limit(LIST_LIMIT),
  ]);
  return {
    cents,
    entries: entries.map((entry) => ({
      at: entry.at.toISOString(),
      kind: entry.kind,
      amountCents: entry.amountCents,
      source: entry.source,
    })),
  };
}

async function readSessions({ db, userId }: AccountContext): Promise<Detail['sessions']> {
  const rows = await db
    .select({
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      endedAt: sessions.endedAt,
      endReason: sessions.endReason,
      context: sessions.context,
      viaKarId: sessions.viaKarId,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.createdAt))
    .limit(LIST_LIMIT);
  return rows.map((row) => ({
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    endedAt: iso(row.endedAt),
    endReason: row.endReason,
    context: row.context,
    viaKarId: row.viaKarId,
  }));
}

async function readIntegrations({ user, carfax }: AccountContext): Promise<Detail['integrations']> {
  const connections = await carfax;
  return {
    carfax: {
      connected: connections.length > 0,
      connectedAt: iso(connections[0]?.connectedAt ?? null),
    },
    autoCheck: {
      autoCheckId: user.autoCheckId,
      enabled: user.autoCheckEnabled,
      autoPurchase: user.autoCheckAutoPurchase,
      passwordSet: Boolean(user.autoCheckPasswordEnc),
    },
  };
}

/** E-mails to any of the account's addresses, by subject and status (bodies carry links). */
async function readEmails({ db, user }: AccountContext): Promise<Detail['emails']> {
  const mails = await db
    .select({
      to: mailOutbox.toAddress,
      subject: mailOutbox.subject,
      status: mailOutbox.status,
      createdAt: mailOutbox.createdAt,
      sentAt: mailOutbox.sentAt,
    })
    .from(mailOutbox)
    .where(inArray(sql`lower(${mailOutbox.toAddress})`, accountAddresses(user)))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(LIST_LIMIT);
  return mails.map((mail) => ({
    to: mail.to,
    subject: mail.subject,
    status: mail.status,
    createdAt: mail.createdAt.toISOString(),
    sentAt: iso(mail.sentAt),
  }));
}
