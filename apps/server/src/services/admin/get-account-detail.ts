import {
  nextBillDateOf,
  nextScheduledRetry,
  scheduledAttempts,
} from '@dealerpass/domain/billing/dunning';
import { calendarDateIn, parseIsoDate, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import { ACCOUNT_STATUS, accountStatusDetailsOf } from '@dealerpass/domain/account/status';
import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { TStaffAccountDetail } from '@dealerpass/domain/staff/console-views';
import type { Database } from '../../db/client.ts';
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
} from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { getBalanceCents } from '../billing/account-balance.ts';
import { refundableCentsSql, staffRefundedCentsSql } from '../billing/payment-refunds.ts';
import { accountAddresses, receiptPath } from './account-records.ts';
import { annualPeriodOf, listAccountInvoices } from '../annual-billing/invoice-records.ts';

/** Rows per list on the account page: enough for years of monthly billing, bounded all the same. */
const LIST_LIMIT = 200;

/**
 * Where the ledger leaves a declined charge's reason (services/billing/ledger): the status change
 * it causes records `renewal declined: <reason>` (the first failed renewal), `last retry
 * declined: <reason>` (the last) or `reactivation declined: <reason>`. A retry that changes no
 * status leaves its reason in its e-mail only; the retries list shows its attempt.
 */
const iso = (value: Date | null) => value?.toISOString() ?? null;

/**
 * Everything the console's account page shows (R12, docs/decisions/026), read-only and without
 * a secret: the card as brand, last four and expiry; AutoCheck's password and Carfax's tokens as
 * booleans; sessions without their ids; e-mails by subject and status (bodies carry links).
 */
const isoDate = (text: string) => {
  const date = parseIsoDate(text);
  if (!date) throw new Error(`not a date: ${text}`);
  return date;
};

export async function getAccountDetail(
  db: Database,
  userId: string,
  clock: { now: Date; timeZone: string },
): Promise<TStaffAccountDetail> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new AppError(ERROR_CODES.NOT_FOUND);
  const addresses = accountAddresses(user);

  const [
    identity,
    carfax,
    history,
    subscription,
    changes,
    paymentRows,
    refundRows,
    declineRows,
    retries,
    balanceCents,
    entries,
    sessionRows,
    mails,
    invoiceViews,
  ] = await Promise.all([
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
    db
      .select({ connectedAt: carfaxConnections.connectedAt })
      .from(carfaxConnections)
      .where(eq(carfaxConnections.userId, userId)),
    db
      .select()
      .from(accountEvents)
      .where(eq(accountEvents.userId, userId))
      .orderBy(desc(accountEvents.at))
      .limit(LIST_LIMIT),
    db.select().from(subscriptions).where(eq(subscriptions.userId, userId)),
    db
      .select()
      .from(subscriptionChanges)
      .where(eq(subscriptionChanges.userId, userId))
      .orderBy(desc(subscriptionChanges.createdAt))
      .limit(LIST_LIMIT),
    db
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
      .limit(LIST_LIMIT),
    db
      .select()
      .from(refunds)
      .where(eq(refunds.userId, userId))
      .orderBy(desc(refunds.createdAt))
      .limit(LIST_LIMIT),
    db
      .select()
      .from(paymentDeclines)
      .where(eq(paymentDeclines.userId, userId))
      .orderBy(desc(paymentDeclines.at), desc(paymentDeclines.attempt))
      .limit(LIST_LIMIT),
    db
      .select()
      .from(billingPeriods)
      .where(
        and(
          eq(billingPeriods.userId, userId),
          or(eq(billingPeriods.status, 'failed'), sql`${billingPeriods.attempt} > 1`),
        ),
      )
      .orderBy(desc(billingPeriods.periodStart))
      .limit(LIST_LIMIT),
    getBalanceCents(db, userId),
    db
      .select()
      .from(balanceEntries)
      .where(eq(balanceEntries.userId, userId))
      .orderBy(desc(balanceEntries.at))
      .limit(LIST_LIMIT),
    db
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
      .limit(LIST_LIMIT),
    db
      .select({
        to: mailOutbox.toAddress,
        subject: mailOutbox.subject,
        status: mailOutbox.status,
        createdAt: mailOutbox.createdAt,
        sentAt: mailOutbox.sentAt,
      })
      .from(mailOutbox)
      .where(inArray(sql`lower(${mailOutbox.toAddress})`, addresses))
      .orderBy(desc(mailOutbox.createdAt))
      .limit(LIST_LIMIT),
    listAccountInvoices(db, userId),
  ]);

  const declines: TStaffAccountDetail['declines'] = [];
  for (const row of declineRows) {
    declines.push({
      at: row.at.toISOString(),
      kind: row.kind,
      attempt: row.attempt,
      reason: row.reason,
    });
  }
  for (const change of changes) {
    if (change.status === 'declined')
      declines.push({
        at: (change.settledAt ?? change.createdAt).toISOString(),
        kind: 'change',
        attempt: null,
        reason: change.declineReason ?? 'declined',
      });
  }
  declines.sort((a, b) => b.at.localeCompare(a.at));

  const sub = subscription[0];
  return {
    profile: {
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
      carfaxConnected: carfax.length > 0,
      identity,
    },
    status: {
      accountStatus: user.accountStatus,
      accountStatusDetails: accountStatusDetailsOf(user),
      // The domain's next bill date, the one the dealer's change page shows (issue 25): past an
      // unpaid renewal's date it is the bill date after it. Inactive accounts have none (R4).
      nextBillDate:
        sub && user.accountStatus !== ACCOUNT_STATUS.inactive
          ? toIsoDate(
              nextBillDateOf(
                {
                  cycleAnchor: isoDate(sub.cycleAnchor),
                  currentPeriodEnd: isoDate(sub.currentPeriodEnd),
                },
                calendarDateIn(clock.now, clock.timeZone),
              ),
            )
          : user.nextBillDate,
      history: history.map((row) => ({
        at: row.at.toISOString(),
        event: row.event,
        fromStatus: row.fromStatus,
        toStatus: row.toStatus,
        actor: row.actor,
      })),
    },
    subscription: sub
      ? {
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
        }
      : null,
    changes: changes.map((change) => ({
      id: change.id,
      status: change.status,
      codesBefore: change.codesBefore,
      codesRequested: change.codesRequested,
      amountCents: change.amountCents,
      declineReason: change.declineReason,
      createdAt: change.createdAt.toISOString(),
      settledAt: iso(change.settledAt),
    })),
    payments: paymentRows.map((row) => ({
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
    })),
    refunds: refundRows.map((row) => ({
      refundId: row.id,
      paymentId: row.paymentId,
      amountCents: row.amountCents,
      status: row.status,
      reason: row.reason,
      failureReason: row.failureReason,
      createdAt: row.createdAt.toISOString(),
      settledAt: iso(row.settledAt),
    })),
    declines,
    retries: retries.map((period) => ({
      periodId: period.id,
      kind: period.kind,
      periodStart: period.periodStart,
      periodEnd: period.periodEnd,
      amountCents: period.amountCents,
      status: period.status,
      // Charges sent for the period, staff retries included: a period still due has its next
      // attempt's number, not yet tried.
      attempts: period.status === 'due' ? period.attempt - 1 : period.attempt,
    })),
    balance: {
      cents: balanceCents,
      entries: entries.map((entry) => ({
        at: entry.at.toISOString(),
        kind: entry.kind,
        amountCents: entry.amountCents,
        source: entry.source,
      })),
    },
    sessions: sessionRows.map((row) => ({
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      endedAt: iso(row.endedAt),
      endReason: row.endReason,
      context: row.context,
      viaKarId: row.viaKarId,
    })),
    integrations: {
      carfax: { connected: carfax.length > 0, connectedAt: iso(carfax[0]?.connectedAt ?? null) },
      autoCheck: {
        autoCheckId: user.autoCheckId,
        enabled: user.autoCheckEnabled,
        autoPurchase: user.autoCheckAutoPurchase,
        passwordSet: Boolean(user.autoCheckPasswordEnc),
      },
    },
    emails: mails.map((mail) => ({
      to: mail.to,
      subject: mail.subject,
      status: mail.status,
      createdAt: mail.createdAt.toISOString(),
      sentAt: iso(mail.sentAt),
    })),
    invoices: invoiceViews,
    annualPeriod: annualPeriodOf(sub, toIsoDate(calendarDateIn(clock.now, clock.timeZone))),
  };
}
