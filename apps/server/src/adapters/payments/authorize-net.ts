import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { TCardType } from '@dealerpass/domain/validation/card';
import type { Database } from '../../db/client.ts';
import { authorizeNetOperations } from '../../db/schema.ts';
import {
  amountToCents,
  apiError,
  centsToAmount,
  createAuthorizeNetApi,
  firstMessage,
  type AnetCreditCard,
  type AnetTransactionDetails,
  type AnetTransactionResponse,
} from './authorize-net-api.ts';
import {
  PaymentGatewayError,
  assertAmountCents,
  type ChargeResult,
  type DeclineReason,
  type DeletePaymentProfileInput,
  type PaymentGateway,
  type PaymentProfile,
  type RefundResult,
  type ReplacePaymentProfileInput,
} from './payment-gateway.ts';
import type { AuthorizeNetConfig } from './payments-config.ts';

/** What Accept.js's opaque data always says it is. */
export const ACCEPT_DATA_DESCRIPTOR = 'COMMON.ACCEPT.INAPP.PAYMENT';
/**
 * Authorize.Net's longest duplicate window (8 hours). Inside it, a retry after a lost answer sends
 * the same invoice number and is answered as a duplicate naming the first transaction.
 */
export const DUPLICATE_WINDOW_SECONDS = 28_800;

const DUPLICATE_TRANSACTION = '11';
/** Reason codes of an error (response code 3) that say the card itself is no good. */
const CARD_ERRORS = new Set(['6', '7', '8', '37', '78', '316', '317']);
const EXPIRED_CARD = new Set(['7', '8', '316', '317']);
/** Reason codes of a refund the referenced transaction does not allow. */
const REFUND_REFUSED = new Set(['16', '54', '55']);

const APPROVED_STATUSES = new Set([
  'authorizedPendingCapture',
  'capturedPendingSettlement',
  'settledSuccessfully',
  'approvedReview',
  'voided',
  'couldNotVoid',
  'settlementError',
  'chargeback',
  'chargebackReversal',
  'returnedItem',
]);
const HELD_STATUSES = new Set(['FDSPendingReview', 'FDSAuthorizedPendingReview', 'underReview']);
const DECLINED_STATUSES = new Set(['declined', 'failedReview']);
const FAILED_STATUSES = new Set(['generalError', 'communicationError']);
/** Before settlement a charge is voided (whole) rather than refunded. */
const UNSETTLED_STATUSES = new Set([
  'authorizedPendingCapture',
  'capturedPendingSettlement',
  ...HELD_STATUSES,
]);

const CARD_BRANDS: Record<string, TCardType> = {
  Visa: 'visa',
  MasterCard: 'mastercard',
  AmericanExpress: 'amex',
  Discover: 'discover',
};

export interface AuthorizeNetGatewayOptions {
  config: AuthorizeNetConfig;
  db: Database;
  now: () => Date;
  fetch?: typeof fetch;
}

/** What a transaction came to, from its own answer or from looking it up. */
type ChargeFate =
  | { kind: 'approved'; transactionId: string }
  | { kind: 'declined'; reason: DeclineReason }
  | { kind: 'held'; transactionId: string }
  | { kind: 'failed'; detail: string };

interface Operation {
  idempotencyKey: string;
  kind: 'charge' | 'refund';
  requestHash: string;
  attempt: number;
}

/**
 * Authorize.Net (DECISIONS R5): customer and payment profiles from Accept.js opaque data, charges
 * against a profile, refunds and voids. Idempotency: our key, hashed with the attempt number,
 * travels as `refId` and the invoice number; outcomes are stored per key
 * (authorize_net_operations), and a duplicate answer is looked up (docs/decisions/010).
 */
export function createAuthorizeNetGateway(options: AuthorizeNetGatewayOptions): PaymentGateway {
  const { config, db, now } = options;
  const call = createAuthorizeNetApi(config, options.fetch);
  const validationMode = config.validationMode;

  async function readPaymentProfile(
    customerProfileId: string,
    paymentProfileId: string,
  ): Promise<PaymentProfile> {
    const response = await call<{ paymentProfile: { payment?: { creditCard?: AnetCreditCard } } }>(
      'getCustomerPaymentProfileRequest',
      { customerProfileId, customerPaymentProfileId: paymentProfileId, unmaskExpirationDate: true },
    );
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
      await deletePaymentProfile({ customerProfileId, paymentProfileId }).catch(() => undefined);
      throw new PaymentGatewayError('card_not_accepted', `card type ${card?.cardType ?? '?'}`);
    }
    return { paymentProfileId, card: { brand, last4, expiration: `${expiry[2]}${expiry[1]}` } };
  }

  async function addPaymentProfile(customerProfileId: string, paymentToken: string) {
    const response = await call<{ customerPaymentProfileId: string }>(
      'createCustomerPaymentProfileRequest',
      { customerProfileId, paymentProfile: { payment: opaqueData(paymentToken) }, validationMode },
    );
    const id = response.customerPaymentProfileId;
    if (response.messages.resultCode === 'Ok' && id) return id;
    // The same card again: the answer names the payment profile that already holds it.
    if (firstMessage(response).code === 'E00039' && id) return id;
    throw apiError('createCustomerPaymentProfileRequest', response);
  }

  async function replacePaymentProfile(input: ReplacePaymentProfileInput): Promise<PaymentProfile> {
    const paymentProfileId = await addPaymentProfile(input.customerProfileId, input.paymentToken);
    const profile = await readPaymentProfile(input.customerProfileId, paymentProfileId);
    // Only after the new card is in place, so a refused card leaves the old one working.
    const response = await call<{
      profile: { paymentProfiles?: { customerPaymentProfileId: string }[] };
    }>('getCustomerProfileRequest', { customerProfileId: input.customerProfileId });
    if (response.messages.resultCode !== 'Ok')
      throw apiError('getCustomerProfileRequest', response);
    for (const other of response.profile?.paymentProfiles ?? []) {
      if (other.customerPaymentProfileId === paymentProfileId) continue;
      await deletePaymentProfile({
        customerProfileId: input.customerProfileId,
        paymentProfileId: other.customerPaymentProfileId,
      });
    }
    return profile;
  }

  async function deletePaymentProfile(input: DeletePaymentProfileInput): Promise<void> {
    const response = await call('deleteCustomerPaymentProfileRequest', {
      customerProfileId: input.customerProfileId,
      customerPaymentProfileId: input.paymentProfileId,
    });
    if (response.messages.resultCode === 'Ok' || firstMessage(response).code === 'E00040') return;
    throw apiError('deleteCustomerPaymentProfileRequest', response);
  }

  async function transactionDetails(transId: string): Promise<AnetTransactionDetails> {
    const response = await call<{ transaction: AnetTransactionDetails }>(
      'getTransactionDetailsRequest',
      { transId },
    );
    if (response.messages.resultCode !== 'Ok' || !response.transaction) {
      throw apiError('getTransactionDetailsRequest', response);
    }
    return response.transaction;
  }

  async function loadOperation(operation: Omit<Operation, 'attempt'>) {
    const [row] = await db
      .select()
      .from(authorizeNetOperations)
      .where(eq(authorizeNetOperations.idempotencyKey, operation.idempotencyKey));
    if (row && (row.kind !== operation.kind || row.requestHash !== operation.requestHash)) {
      throw new PaymentGatewayError(
        'idempotency_conflict',
        'the idempotency key was used before for a different request',
      );
    }
    return row;
  }

  async function record(
    operation: Operation,
    outcome: {
      status: 'retry' | 'held' | 'approved' | 'declined' | 'refunded';
      attempt?: number;
      transactionId?: string;
      declineReason?: DeclineReason;
    },
  ): Promise<void> {
    const values = {
      status: outcome.status,
      attempt: outcome.attempt ?? operation.attempt,
      transactionId: outcome.transactionId ?? null,
      declineReason: outcome.declineReason ?? null,
      updatedAt: now(),
    };
    await db
      .insert(authorizeNetOperations)
      .values({
        idempotencyKey: operation.idempotencyKey,
        kind: operation.kind,
        requestHash: operation.requestHash,
        ...values,
      })
      .onConflictDoUpdate({ target: authorizeNetOperations.idempotencyKey, set: values });
  }

  /** Stores what a charge came to and answers it; a failure moves the key to its next attempt. */
  async function settleCharge(operation: Operation, fate: ChargeFate): Promise<ChargeResult> {
    switch (fate.kind) {
      case 'approved':
        await record(operation, { status: 'approved', transactionId: fate.transactionId });
        return { status: 'approved', transactionId: fate.transactionId };
      case 'declined':
        await record(operation, { status: 'declined', declineReason: fate.reason });
        return { status: 'declined', reason: fate.reason };
      case 'held':
        await record(operation, { status: 'held', transactionId: fate.transactionId });
        throw new PaymentGatewayError(
          'held_for_review',
          `Authorize.Net holds transaction ${fate.transactionId} for review`,
        );
      case 'failed':
        // The processor answered with an error: nothing was charged, so the next try may send a
        // new invoice number without being refused as a duplicate of this one.
        await record(operation, { status: 'retry', attempt: operation.attempt + 1 });
        throw new PaymentGatewayError('processor_error', `Authorize.Net: ${fate.detail}`);
    }
  }

  async function charge(input: Parameters<PaymentGateway['charge']>[0]): Promise<ChargeResult> {
    assertAmountCents(input.amountCents);
    const base = {
      idempotencyKey: input.idempotencyKey,
      kind: 'charge' as const,
      requestHash: hashOf([
        'charge',
        input.customerProfileId,
        input.paymentProfileId,
        input.amountCents,
      ]),
    };
    const stored = await loadOperation(base);
    const operation = { ...base, attempt: stored?.attempt ?? 1 };
    if (stored?.status === 'approved' && stored.transactionId) {
      return { status: 'approved', transactionId: stored.transactionId };
    }
    if (stored?.status === 'declined') {
      return { status: 'declined', reason: stored.declineReason ?? 'declined' };
    }
    if (stored?.status === 'held' && stored.transactionId) {
      return settleCharge(operation, fateOfDetails(await transactionDetails(stored.transactionId)));
    }

    const invoiceNumber = invoiceNumberOf(operation.idempotencyKey, operation.attempt);
    const response = await call<{ transactionResponse: AnetTransactionResponse }>(
      'createTransactionRequest',
      {
        refId: invoiceNumber,
        transactionRequest: {
          transactionType: 'authCaptureTransaction',
          amount: centsToAmount(input.amountCents),
          profile: {
            customerProfileId: input.customerProfileId,
            paymentProfile: { paymentProfileId: input.paymentProfileId },
          },
          order: { invoiceNumber, description: input.description.slice(0, 255) },
          transactionSettings: DUPLICATE_WINDOW_SETTING,
        },
      },
    );
    const transaction = response.transactionResponse;
    if (!transaction?.responseCode) throw apiError('createTransactionRequest', response);
    if (transaction.responseCode === '3' && reasonOf(transaction) === DUPLICATE_TRANSACTION) {
      // An earlier try of this attempt reached Authorize.Net: its outcome is the answer.
      return settleCharge(
        operation,
        fateOfDetails(await transactionDetails(originalOf(transaction))),
      );
    }
    return settleCharge(operation, fateOfResponse(transaction));
  }

  async function refund(input: Parameters<PaymentGateway['refund']>[0]): Promise<RefundResult> {
    assertAmountCents(input.amountCents);
    const base = {
      idempotencyKey: input.idempotencyKey,
      kind: 'refund' as const,
      requestHash: hashOf(['refund', input.transactionId, input.amountCents]),
    };
    const stored = await loadOperation(base);
    const operation = { ...base, attempt: stored?.attempt ?? 1 };
    if (stored?.status === 'refunded' && stored.transactionId) {
      return { status: 'refunded', refundId: stored.transactionId };
    }
    const refunded = async (refundId: string): Promise<RefundResult> => {
      await record(operation, { status: 'refunded', transactionId: refundId });
      return { status: 'refunded', refundId };
    };

    const original = await transactionDetails(input.transactionId);
    const status = original.transactionStatus;
    if (status === 'voided') {
      // Voided already (by this key, whose answer was lost): the money never moved.
      return refunded(input.transactionId);
    }
    const invoiceNumber = invoiceNumberOf(operation.idempotencyKey, operation.attempt);
    let transactionRequest: Record<string, unknown>;
    if (UNSETTLED_STATUSES.has(status)) {
      if (amountToCents(original.authAmount) !== input.amountCents) {
        throw new PaymentGatewayError(
          'refund_not_allowed',
          'before settlement a charge can only be voided whole',
        );
      }
      transactionRequest = { transactionType: 'voidTransaction', refTransId: input.transactionId };
    } else if (status === 'settledSuccessfully') {
      const last4 = /(\d{4})$/.exec(original.payment?.creditCard?.cardNumber ?? '')?.[1];
      if (!last4) throw new PaymentGatewayError('unexpected_response', 'no card on the charge');
      transactionRequest = {
        transactionType: 'refundTransaction',
        amount: centsToAmount(input.amountCents),
        payment: { creditCard: { cardNumber: last4, expirationDate: 'XXXX' } },
        refTransId: input.transactionId,
        order: { invoiceNumber, description: 'Refund' },
        transactionSettings: DUPLICATE_WINDOW_SETTING,
      };
    } else {
      throw new PaymentGatewayError('refund_not_allowed', `the charge is ${status}`);
    }

    const response = await call<{ transactionResponse: AnetTransactionResponse }>(
      'createTransactionRequest',
      { refId: invoiceNumber, transactionRequest },
    );
    const transaction = response.transactionResponse;
    if (!transaction?.responseCode) throw apiError('createTransactionRequest', response);
    const reason = reasonOf(transaction);
    if (transaction.responseCode === '1') {
      const id = transaction.transId && transaction.transId !== '0' ? transaction.transId : '';
      return refunded(id || input.transactionId);
    }
    if (transaction.responseCode === '3' && reason === DUPLICATE_TRANSACTION) {
      const earlier = await transactionDetails(originalOf(transaction));
      if (String(earlier.responseCode) === '1') return refunded(earlier.transId);
    } else if (transaction.responseCode === '2' || REFUND_REFUSED.has(reason)) {
      throw new PaymentGatewayError(
        'refund_not_allowed',
        `Authorize.Net: ${errorText(transaction)}`,
      );
    }
    await record(operation, { status: 'retry', attempt: operation.attempt + 1 });
    throw new PaymentGatewayError('processor_error', `Authorize.Net: ${errorText(transaction)}`);
  }

  return {
    kind: 'authorize-net',
    // One HTTPS request per charge: a few connections' worth, not a batch's.
    chargeConcurrency: 16,
    publicConfig: () => ({
      kind: 'authorize-net',
      acceptJsUrl: config.acceptJsUrl,
      apiLoginId: config.apiLoginId,
      clientKey: config.clientKey,
    }),
    async createCustomerProfile(input) {
      const response = await call<{
        customerProfileId: string;
        customerPaymentProfileIdList: string[];
      }>('createCustomerProfileRequest', {
        profile: {
          merchantCustomerId: hashOf(input.accountId).slice(0, 20),
          description: `DealerPass account ${input.accountId}`.slice(0, 255),
          email: input.email,
          paymentProfiles: { payment: opaqueData(input.paymentToken) },
        },
        validationMode,
      });
      if (response.messages.resultCode === 'Ok') {
        const customerProfileId = response.customerProfileId;
        const paymentProfileId = response.customerPaymentProfileIdList?.[0];
        if (!customerProfileId || !paymentProfileId) {
          throw new PaymentGatewayError('unexpected_response', 'Authorize.Net sent no profile ids');
        }
        return {
          customerProfileId,
          ...(await readPaymentProfile(customerProfileId, paymentProfileId)),
        };
      }
      const { code, text } = firstMessage(response);
      const existing = /ID (\d+)/.exec(text)?.[1];
      if (code === 'E00039' && existing) {
        // The account has a profile already (an earlier sign-up, or an answer we lost): the new
        // card joins it and becomes its only payment profile.
        const profile = await replacePaymentProfile({
          customerProfileId: existing,
          paymentToken: input.paymentToken,
        });
        return { customerProfileId: existing, ...profile };
      }
      throw apiError('createCustomerProfileRequest', response);
    },
    replacePaymentProfile,
    deletePaymentProfile,
    charge,
    refund,
  };
}

const DUPLICATE_WINDOW_SETTING = {
  setting: [{ settingName: 'duplicateWindow', settingValue: String(DUPLICATE_WINDOW_SECONDS) }],
};

function opaqueData(paymentToken: string) {
  return { opaqueData: { dataDescriptor: ACCEPT_DATA_DESCRIPTOR, dataValue: paymentToken } };
}

/** Both fields are at most 20 characters: 80 bits of the key and the attempt number. */
export function invoiceNumberOf(idempotencyKey: string, attempt: number): string {
  return hashOf([idempotencyKey, attempt]).slice(0, 20);
}

function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

function reasonOf(transaction: AnetTransactionResponse): string {
  return transaction.errors?.[0]?.errorCode ?? transaction.messages?.[0]?.code ?? '';
}

function errorText(transaction: AnetTransactionResponse): string {
  const error = transaction.errors?.[0];
  return error
    ? `${error.errorCode} ${error.errorText}`
    : `response code ${transaction.responseCode}`;
}

function originalOf(transaction: AnetTransactionResponse): string {
  if (!transaction.transId || transaction.transId === '0') {
    throw new PaymentGatewayError(
      'unexpected_response',
      'Authorize.Net reported a duplicate without naming the first transaction',
    );
  }
  return transaction.transId;
}

function declineReasonOf(reasonCode: string): DeclineReason {
  // Authorize.Net has no reason code of its own for insufficient funds: such declines are code 2.
  return EXPIRED_CARD.has(reasonCode) ? 'expired_card' : 'declined';
}

function fateOfResponse(transaction: AnetTransactionResponse): ChargeFate {
  const reason = reasonOf(transaction);
  switch (transaction.responseCode) {
    case '1':
      return { kind: 'approved', transactionId: originalOf(transaction) };
    case '2':
      return { kind: 'declined', reason: declineReasonOf(reason) };
    case '4':
      return { kind: 'held', transactionId: originalOf(transaction) };
    default:
      return CARD_ERRORS.has(reason)
        ? { kind: 'declined', reason: declineReasonOf(reason) }
        : { kind: 'failed', detail: errorText(transaction) };
  }
}

function fateOfDetails(details: AnetTransactionDetails): ChargeFate {
  const status = details.transactionStatus;
  const reason = String(details.responseReasonCode ?? '');
  if (APPROVED_STATUSES.has(status)) return { kind: 'approved', transactionId: details.transId };
  if (HELD_STATUSES.has(status)) return { kind: 'held', transactionId: details.transId };
  if (DECLINED_STATUSES.has(status)) return { kind: 'declined', reason: declineReasonOf(reason) };
  if (FAILED_STATUSES.has(status)) {
    return CARD_ERRORS.has(reason)
      ? { kind: 'declined', reason: declineReasonOf(reason) }
      : { kind: 'failed', detail: `transaction ${details.transId} is ${status}` };
  }
  throw new PaymentGatewayError('unexpected_response', `transaction status ${status}`);
}
