import type { TCardType } from '@dealerpass/domain/validation/card';
import { apiError, firstMessage, type AnetCreditCard } from './authorize-net-api.ts';
import { hashOf, type AuthorizeNet } from './authorize-net-context.ts';
import {
  PaymentGatewayError,
  type CustomerProfile,
  type DeletePaymentProfileInput,
  type PaymentGateway,
  type PaymentProfile,
  type ReplacePaymentProfileInput,
} from './payment-gateway.ts';

/** What Accept.js's opaque data always says it is. */
export const ACCEPT_DATA_DESCRIPTOR = 'COMMON.ACCEPT.INAPP.PAYMENT';

const CARD_BRANDS: Record<string, TCardType> = {
  Visa: 'visa',
  MasterCard: 'mastercard',
  AmericanExpress: 'amex',
  Discover: 'discover',
};

/**
 * Authorize.Net's customer and payment profiles (DECISIONS R5): made from Accept.js's opaque
 * data, read back as brand, last four and expiry only.
 */
export async function createCustomerProfile(
  anet: AuthorizeNet,
  input: Parameters<PaymentGateway['createCustomerProfile']>[0],
): Promise<CustomerProfile> {
  const response = await anet.call<{
    customerProfileId: string;
    customerPaymentProfileIdList: string[];
  }>('createCustomerProfileRequest', {
    profile: {
      merchantCustomerId: hashOf(input.accountId).slice(0, 20),
      description: `DealerPass account ${input.accountId}`.slice(0, 255),
      email: input.email,
      paymentProfiles: { payment: opaqueData(input.paymentToken) },
    },
    validationMode: anet.validationMode,
  });
  if (response.messages.resultCode === 'Ok') {
    const customerProfileId = response.customerProfileId;
    const paymentProfileId = response.customerPaymentProfileIdList?.[0];
    if (!customerProfileId || !paymentProfileId) {
      throw new PaymentGatewayError('unexpected_response', 'Authorize.Net sent no profile ids');
    }
    return {
      customerProfileId,
      ...(await readPaymentProfile(anet, customerProfileId, paymentProfileId)),
    };
  }
  const { code, text } = firstMessage(response);
  const existing = /ID (\d+)/.exec(text)?.[1];
  if (code === 'E00039' && existing) {
    // The account has a profile already (an earlier sign-up, or an answer we lost): the new
    // card joins it and becomes its only payment profile.
    const profile = await replacePaymentProfile(anet, {
      customerProfileId: existing,
      paymentToken: input.paymentToken,
    });
    return { customerProfileId: existing, ...profile };
  }
  throw apiError('createCustomerProfileRequest', response);
}

async function readPaymentProfile(
  anet: AuthorizeNet,
  customerProfileId: string,
  paymentProfileId: string,
): Promise<PaymentProfile> {
  const response = await anet.call<{
    paymentProfile: { payment?: { creditCard?: AnetCreditCard } };
  }>('getCustomerPaymentProfileRequest', {
    customerProfileId,
    customerPaymentProfileId: paymentProfileId,
    unmaskExpirationDate: true,
  });
  if (response.messages.resultCode !== 'Ok') {
    throw apiError('getCustomerPaymentProfileRequest', response);
  }
  const card = response.paymentProfile?.payment?.creditCard;
  const last4 = /(\d{4})$/.exec(card?.cardNumber ?? '')?.[1];
  const expiry = /^\d{2}(\d{2})-(\d{2})$/.exec(card?.expirationDate ?? '');
  if (!last4 || !expiry) {
    throw new PaymentGatewayError('unexpected_response', 'Authorize.Net sent no card summary');
  }
  const brand = CARD_BRANDS[card?.cardType ?? ''];
  if (!brand) {
    await deletePaymentProfile(anet, { customerProfileId, paymentProfileId }).catch(
      () => undefined,
    );
    throw new PaymentGatewayError('card_not_accepted', `card type ${card?.cardType ?? '?'}`);
  }
  return { paymentProfileId, card: { brand, last4, expiration: `${expiry[2]}${expiry[1]}` } };
}

async function addPaymentProfile(
  anet: AuthorizeNet,
  customerProfileId: string,
  paymentToken: string,
) {
  const response = await anet.call<{ customerPaymentProfileId: string }>(
    'createCustomerPaymentProfileRequest',
    {
      customerProfileId,
      paymentProfile: { payment: opaqueData(paymentToken) },
      validationMode: anet.validationMode,
    },
  );
  const id = response.customerPaymentProfileId;
  if (response.messages.resultCode === 'Ok' && id) return id;
  // The same card again: the answer names the payment profile that already holds it.
  if (firstMessage(response).code === 'E00039' && id) return id;
  throw apiError('createCustomerPaymentProfileRequest', response);
}

export async function replacePaymentProfile(
  anet: AuthorizeNet,
  input: ReplacePaymentProfileInput,
): Promise<PaymentProfile> {
  const paymentProfileId = await addPaymentProfile(
    anet,
    input.customerProfileId,
    input.paymentToken,
  );
  const profile = await readPaymentProfile(anet, input.customerProfileId, paymentProfileId);
  // Only after the new card is in place, so a refused card leaves the old one working.
  const response = await anet.call<{
    profile: { paymentProfiles?: { customerPaymentProfileId: string }[] };
  }>('getCustomerProfileRequest', { customerProfileId: input.customerProfileId });
  if (response.messages.resultCode !== 'Ok') throw apiError('getCustomerProfileRequest', response);
  for (const other of response.profile?.paymentProfiles ?? []) {
    if (other.customerPaymentProfileId === paymentProfileId) continue;
    await deletePaymentProfile(anet, {
      customerProfileId: input.customerProfileId,
      paymentProfileId: other.customerPaymentProfileId,
    });
  }
  return profile;
}

export async function deletePaymentProfile(
  anet: AuthorizeNet,
  input: DeletePaymentProfileInput,
): Promise<void> {
  const response = await anet.call('deleteCustomerPaymentProfileRequest', {
    customerProfileId: input.customerProfileId,
    customerPaymentProfileId: input.paymentProfileId,
  });
  if (response.messages.resultCode === 'Ok' || firstMessage(response).code === 'E00040') return;
  throw apiError('deleteCustomerPaymentProfileRequest', response);
}

function opaqueData(paymentToken: string) {
  return { opaqueData: { dataDescriptor: ACCEPT_DATA_DESCRIPTOR, dataValue: paymentToken } };
}
