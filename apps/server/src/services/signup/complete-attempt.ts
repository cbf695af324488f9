import { and, eq } from 'drizzle-orm';
import { STATUS_AT_SIGN_UP } from '@dealerpass/domain/account/status-transitions';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { signupCharges, welcomePriceNoticeLines } from '@dealerpass/domain/billing/order-summary';
import type { IQuote, TPriceTable } from '@dealerpass/domain/prices';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { Transaction } from '../../db/client.ts';
import {
  accountEvents,
  billingPeriods,
  priceChangeNotices,
  promotionRedemptions,
  signupAttempts,
  signupLeads,
  subscriptions,
  users,
} from '../../db/schema.ts';
import { recordPayment } from '../billing/ledger/record-payment.ts';
import { recordMrrState } from '../overview/record-mrr-state.ts';
import { createIdentity } from '../identity/create-identity.ts';
import { findPromotion } from './promotions.ts';
import { sendVerificationMail } from './send-verification-mail.ts';
import type { AttemptRow, SignupDeps, StoredRequest } from './signup-deps.ts';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Phase 3: everything of the new account in one transaction. `recordKey`, when the request is
 * keyed, records its key as that transaction's first write (`oncePerKey`, docs/decisions/045).
 */
export async function completeAttempt(
  deps: SignupDeps,
  attempt: AttemptRow,
  transactionId: string | null,
  recordKey?: (tx: Transaction) => Promise<void>,
): Promise<void> {
  const request = attempt.request as StoredRequest;
  const now = deps.now();
  const todayDate = calendarDateIn(now, deps.timeZone);
  const today = toIsoDate(todayDate);
  await deps.db.transaction(async (tx) => {
    if (recordKey) await recordKey(tx);
    const [locked] = await tx
      .select()
      .from(signupAttempts)
      .where(
        and(eq(signupAttempts.email, attempt.email), eq(signupAttempts.userId, attempt.userId)),
      )
      .for('update');
    if (!locked) throw new Error('sign-up attempt vanished');
    if (locked.status === 'completed') return;

    const { charged, discountCents, firstRenewal, priceChanges } = await chargedQuote(
      tx,
      deps.prices.table(),
      attempt,
      now,
      deps.timeZone,
    );

    const identity = await createIdentity(tx, { email: attempt.email, now });
    const userId = attempt.userId;
    const periodId = await insertAccount(tx, attempt, {
      identityId: identity.id,
      charged,
      firstRenewal,
      today,
      paid: Boolean(transactionId),
      now,
    });
    if (transactionId) {
      // The billing run's own record: payment row, stored receipt, period paid, receipt e-mail.
      await recordPayment(
        tx,
        deps,
        {
          userId,
          periodId,
          idempotencyKey: attempt.chargeKey!,
          amountCents: attempt.amountCents,
          customerProfileId: attempt.gatewayCustomerId!,
          paymentProfileId: attempt.gatewayPaymentProfileId!,
        },
        transactionId,
        now,
      );
    }
    if (attempt.promotionCode) {
      await tx.insert(promotionRedemptions).values({
        code: attempt.promotionCode,
        userId,
        discountCents,
        redeemedAt: now,
      });
    }
    // Lead ids are UUIDs; anything else names no lead (and must not fail the transaction).
    if (request.leadID && UUID_PATTERN.test(request.leadID)) {
      await tx
        .update(signupLeads)
        .set({ convertedUserId: userId, updatedAt: now })
        .where(eq(signupLeads.id, request.leadID));
    }
    if (priceChanges.length > 0) {
      // R11 amended: told in the welcome e-mail as at scheduling, so a withdrawal tells it too.
      await tx
        .insert(priceChangeNotices)
        .values(
          priceChanges.map((change) => ({
            userId,
            effectiveFrom: new Date(change.effectiveFrom),
            oldTotalCents: change.oldTotalCents,
            newTotalCents: change.newTotalCents,
          })),
        )
        .onConflictDoNothing();
    }
    await sendVerificationMail(tx, deps, {
      identityId: identity.id,
      email: request.email.trim(),
      firstName: request.firstName,
      forwardTo: request.forwardTo,
      now,
      priceNotice: welcomePriceNoticeLines(priceChanges),
    });
    await tx
      .update(signupAttempts)
      .set({ status: 'completed', updatedAt: now })
      .where(eq(signupAttempts.email, attempt.email));
  });
}

/**
 * What the first charge bought: the quote of now with the promotion's line, at the amount fixed
 * in phase 1, and the first renewal date the promotion's free months move.
 */
async function chargedQuote(
  tx: Transaction,
  table: TPriceTable,
  attempt: AttemptRow,
  now: Date,
  timeZone: string,
) {
  const request = attempt.request as StoredRequest;
  const codes = request.subscriptions as TSubscriptionCode[];
  const promotion = attempt.promotionCode ? await findPromotion(tx, attempt.promotionCode) : null;
  // The Order Summary's computation (docs/decisions/032): the first renewal and the changes ahead.
  const {
    quote: priced,
    effect,
    nextChargeDate,
    priceChanges,
  } = signupCharges(codes, promotion, now, timeZone, table);
  // The amount was fixed in phase 1; a price change since then does not move it.
  const discountCents = priced.totalCents - attempt.amountCents;
  const firstRenewal = toIsoDate(nextChargeDate);
  const charged: IQuote = {
    ...priced,
    lines:
      discountCents === 0 && !effect.line
        ? priced.lines
        : [
            ...priced.lines,
            {
              code: 'PROMO' as TSubscriptionCode,
              name: effect.line?.name ?? 'Promotion',
              cents: -discountCents,
              listCents: -discountCents,
              free: false,
            },
          ],
    totalCents: attempt.amountCents,
  };
  return { charged, discountCents, firstRenewal, priceChanges };
}

/** The account's rows: the user, its subscription, the sign-up period and the audit row. */
async function insertAccount(
  tx: Transaction,
  attempt: AttemptRow,
  account: {
    identityId: string;
    charged: IQuote;
    firstRenewal: string;
    today: string;
    paid: boolean;
    now: Date;
  },
): Promise<string> {
  const request = attempt.request as StoredRequest;
  const { charged, firstRenewal, today, now } = account;
  const userId = attempt.userId;
  const codes = request.subscriptions as TSubscriptionCode[];
  const billing = request;
  await tx.insert(users).values({
    id: userId,
    dealerpassUserId: attempt.email,
    karId: account.identityId,
    email: request.email.trim(),
    altEmail: request.altEmail || null,
    firstName: request.firstName,
    lastName: request.lastName,
    dealership: request.dealership,
    phone: request.phone,
    phoneCountryCode: request.phoneCountryCode,
    altPhone: request.altPhone || null,
    altPhoneCountryCode: request.altPhoneCountryCode || null,
    auctionAccessId: request.auctionAccessId || null,
    dealershipAuctionAccessId: request.dealershipAuctionAccessId || null,
    address1: request.address1,
    address2: request.address2 || null,
    city: request.city,
    state: request.state,
    zip: request.zip,
    country: request.country,
    ...(attempt.gatewayCustomerId
      ? {
          billingFirstName: billing.billingFirstName,
          billingLastName: billing.billingLastName,
          billingCountry: billing.billingCountry || null,
          billingAddress1: billing.billingAddress1,
          billingAddress2: billing.billingAddress2 || null,
          billingCity: billing.billingCity,
          billingState: billing.billingState,
          billingZip: billing.billingZip,
          cardBrand: attempt.cardBrand,
          cardLast4: attempt.cardLast4,
          cardExpiration: attempt.cardExpiration,
        }
      : {}),
    subscriptions: codes,
    accountStatus: STATUS_AT_SIGN_UP,
    nextBillDate: firstRenewal,
    createdAt: now,
    updatedAt: now,
  });
  await tx.insert(subscriptions).values({
    userId,
    codes,
    cycleAnchor: today,
    currentPeriodStart: today,
    currentPeriodEnd: firstRenewal,
    gatewayCustomerId: attempt.gatewayCustomerId,
    gatewayPaymentProfileId: attempt.gatewayPaymentProfileId,
    updatedAt: now,
  });
  const [period] = await tx
    .insert(billingPeriods)
    .values({
      userId,
      kind: 'signup',
      periodStart: today,
      periodEnd: firstRenewal,
      amountCents: attempt.amountCents,
      quote: charged,
      status: account.paid ? 'due' : 'waived',
      idempotencyKey: attempt.chargeKey ?? `signup:${userId}:waived`,
      settledAt: account.paid ? null : now,
      createdAt: now,
    })
    .returning({ id: billingPeriods.id });
  if (!period) throw new Error('sign-up period insert returned no row');
  await tx.insert(accountEvents).values({
    userId,
    event: 'signed up',
    fromStatus: null,
    toStatus: STATUS_AT_SIGN_UP,
    actor: 'user',
    at: now,
    details: { promotionCode: attempt.promotionCode, amountCents: attempt.amountCents },
  });
  await recordMrrState(tx, { userId, at: now, event: 'signUp' });
  return period.id;
}
