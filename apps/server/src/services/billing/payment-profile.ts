import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import type { TBillingAddressFields } from '@dealerpass/domain/schemas/billing-fields';
import { nextBillDate } from '@dealerpass/domain/billing/renewal-calendar';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { CustomerProfile, PaymentProfile } from '../../adapters/payments/payment-gateway.ts';
import type { Transaction } from '../../db/client.ts';
import { billingPeriods, subscriptions, users } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { getUserRow } from '../users/get-user-row.ts';
import type { UserRow } from '../users/serialize-user.ts';
import { getSubscriptionRow, profileFailure, type BillingApiDeps } from './billing-context.ts';
import { lockAccount } from './ledger/lock-account.ts';
import { oncePerKey } from '../request-keys/once-per-key.ts';
import { runBilling } from './run-billing.ts';

export interface PaymentProfileInput extends TBillingAddressFields {
  paymentToken: string;
}

/**
 * Saves a card at the gateway (a new customer profile, or the customer's payment profile
 * replaced) and then, in one transaction, its gateway ids and display fields and the billing
 * address. A gateway failure writes nothing. An account without a subscription row gets one: the
 * account's codes, a cycle anchor of today and its first bill date a month on.
 */
export async function storePaymentProfile(
  deps: BillingApiDeps,
  userId: string,
  input: PaymentProfileInput,
  options: {
    retryDueRenewal: boolean;
    /** Keeps the request's key as the first write of the card's transaction (decision 038). */
    record?: (tx: Transaction) => Promise<void>;
  },
): Promise<UserRow> {
  const user = await getUserRow(deps.db, userId);
  const subscription = await getSubscriptionRow(deps.db, userId);
  let saved: PaymentProfile & { customerProfileId: string };
  try {
    if (subscription?.gatewayCustomerId) {
      const replaced = await deps.payments.replacePaymentProfile({
        customerProfileId: subscription.gatewayCustomerId,
        paymentToken: input.paymentToken,
      });
      saved = { ...replaced, customerProfileId: subscription.gatewayCustomerId };
    } else {
      const created: CustomerProfile = await deps.payments.createCustomerProfile({
        accountId: userId,
        email: user.email,
        paymentToken: input.paymentToken,
      });
      saved = created;
    }
  } catch (error) {
    throw profileFailure(error);
  }

  const now = deps.now();
  const today = calendarDateIn(now, deps.timeZone);
  const retry = options.retryDueRenewal && user.accountStatus === ACCOUNT_STATUS.validatingPayment;
  await deps.db.transaction(async (tx) => {
    // The request's key first (decision 031), then the account, as every money or status write
    // (docs/decisions/028).
    await options.record?.(tx);
    await lockAccount(tx, userId);
    const existing = await getSubscriptionRow(tx, userId, true);
    if (existing) {
      // An attempt whose charge is in flight keeps its lease: moved to now, a second claim would
      // send the same attempt again. Its decline is recorded as the old card's, and the run that
      // holds it tries this card next at once (ledger/record-decline.ts).
      const inFlight = retry && (await attemptInFlight(tx, userId, existing.nextRetryAt, now));
      await tx
        .update(subscriptions)
        .set({
          gatewayCustomerId: saved.customerProfileId,
          gatewayPaymentProfileId: saved.paymentProfileId,
          // R4: a new card triggers an immediate retry of the due renewal.
          ...(retry && !inFlight ? { nextRetryAt: now } : {}),
          updatedAt: now,
        })
        .where(eq(subscriptions.userId, userId));
    } else {
      await tx.insert(subscriptions).values({
        userId,
        codes: user.subscriptions as TSubscriptionCode[],
        cycleAnchor: toIsoDate(today),
        currentPeriodStart: toIsoDate(today),
        currentPeriodEnd: toIsoDate(nextBillDate(today, today)),
        gatewayCustomerId: saved.customerProfileId,
        gatewayPaymentProfileId: saved.paymentProfileId,
        updatedAt: now,
      });
    }
    await tx
      .update(users)
      .set({
        cardBrand: saved.card.brand,
        cardLast4: saved.card.last4,
        cardExpiration: saved.card.expiration,
        billingFirstName: input.billingFirstName,
        billingLastName: input.billingLastName,
        billingCountry: input.billingCountry,
        billingAddress1: input.billingAddress1,
        billingAddress2: input.billingAddress2,
        billingCity: input.billingCity,
        billingState: input.billingState,
        billingZip: input.billingZip,
        updatedAt: now,
      })
      .where(eq(users.id, userId));
  });
  if (retry) await runBilling(deps, { userId });
  return getUserRow(deps.db, userId);
}

/**
 * PUT /api/users/paymentProfile, once per request key (`oncePerKey`, decisions 031 and 038): the
 * key is recorded with the card's gateway ids; the same request again (a lost answer resent)
 * replaces no card at the gateway and retries no renewal a second time, and answers the account
 * as it is now.
 */
export async function updatePaymentProfile(
  deps: BillingApiDeps,
  userId: string,
  input: PaymentProfileInput & { requestKey: string },
): Promise<UserRow> {
  const keyed = { owner: { userId }, action: 'storePaymentProfile', target: {}, body: input };
  await oncePerKey<{ stored: true }>(deps.db, keyed, {
    run: async (record) => {
      const stored = { stored: true } as const;
      await storePaymentProfile(deps, userId, input, {
        retryDueRenewal: true,
        record: (tx) => record(tx, stored),
      });
      return stored;
    },
  });
  return getUserRow(deps.db, userId);
}

/** A claimed attempt (a due period holding its card) whose lease has not run out. */
async function attemptInFlight(
  tx: Transaction,
  userId: string,
  nextRetryAt: Date | null,
  now: Date,
): Promise<boolean> {
  if (nextRetryAt === null || nextRetryAt <= now) return false;
  const [claimed] = await tx
    .select({ id: billingPeriods.id })
    .from(billingPeriods)
    .where(
      and(
        eq(billingPeriods.userId, userId),
        eq(billingPeriods.status, 'due'),
        isNotNull(billingPeriods.gatewayPaymentProfileId),
      ),
    )
    .limit(1);
  return claimed !== undefined;
}

/** DELETE /api/users/paymentProfile: the gateway's payment profile, then the card fields. */
export async function removePaymentProfile(deps: BillingApiDeps, userId: string): Promise<UserRow> {
  const subscription = await getSubscriptionRow(deps.db, userId);
  if (subscription?.gatewayCustomerId && subscription.gatewayPaymentProfileId) {
    try {
      await deps.payments.deletePaymentProfile({
        customerProfileId: subscription.gatewayCustomerId,
        paymentProfileId: subscription.gatewayPaymentProfileId,
      });
    } catch (error) {
      throw new AppError(ERROR_CODES.PAYMENT_PROFILE_FAILED, { cause: error });
    }
  }
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await lockAccount(tx, userId);
    await tx
      .update(subscriptions)
      .set({ gatewayPaymentProfileId: null, updatedAt: now })
      .where(eq(subscriptions.userId, userId));
    await tx
      .update(users)
      .set({ cardBrand: null, cardLast4: null, cardExpiration: null, updatedAt: now })
      .where(eq(users.id, userId));
  });
  return getUserRow(deps.db, userId);
}
