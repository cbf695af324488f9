import { eq } from 'drizzle-orm';
import { subscriptions, users } from '../../src/db/schema.ts';
import { issueSandboxToken } from '../../src/sandboxes/payments/sandbox-tokens.ts';
import type { TestApp } from '../support/helper.ts';

/** A card the sandbox gateway approves, and one it declines (its documented test numbers). */
export const APPROVED_CARD = '4111111111111111';

/** A card's billing address as the card forms send it (reactivation, a new card on file). */
export const BILLING_ADDRESS = {
  billingFirstName: 'Pat',
  billingLastName: 'Payer',
  billingCountry: 'US',
  billingAddress1: '2 Bill St',
  billingAddress2: '',
  billingCity: 'Lansing',
  billingState: 'MI',
  billingZip: '48901',
};

export interface SubscriptionInput {
  /** The account, made by `createAccount` or a fixture. */
  userId: string;
  email: string;
  codes: string[];
  cycleAnchor: string;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  /** When the card is tokenized (the sandbox's token clock). */
  now: Date;
  /** The card number put on file; the approving test card by default. */
  card?: string;
  /** MMYY; the sandbox takes any date in the future of `now`. */
  expiration?: string;
  /**
   * The card is tokenized and its brand and last digits shown on the account, but the
   * subscription names no gateway profile: a subscriber the billing run cannot charge.
   */
  withoutProfileOnSubscription?: boolean;
}

/**
 * Puts a card on file for an account at the sandbox gateway (token, customer profile, the
 * account's brand and last four digits) and gives it its subscription row: the set-up every
 * billing, receipt, price and change test starts from (issue 26 item 8; it was copied in eight
 * files). Returns the gateway's customer profile.
 */
export async function subscribeWithCard(t: TestApp, input: SubscriptionInput) {
  const token = await issueSandboxToken(
    t.app.db,
    {
      creditCardNumber: input.card ?? APPROVED_CARD,
      creditCardExpiration: input.expiration ?? '1230',
      creditCardCode: '123',
    },
    input.now,
  );
  const profile = await t.app.payments.createCustomerProfile({
    accountId: input.userId,
    email: input.email,
    paymentToken: token.paymentToken,
  });
  await t.app.db
    .update(users)
    .set({ cardBrand: profile.card.brand, cardLast4: profile.card.last4 })
    .where(eq(users.id, input.userId));
  const onFile = !input.withoutProfileOnSubscription;
  await t.app.db.insert(subscriptions).values({
    userId: input.userId,
    codes: input.codes,
    cycleAnchor: input.cycleAnchor,
    currentPeriodStart: input.currentPeriodStart,
    currentPeriodEnd: input.currentPeriodEnd,
    gatewayCustomerId: onFile ? profile.customerProfileId : null,
    gatewayPaymentProfileId: onFile ? profile.paymentProfileId : null,
  });
  return profile;
}
