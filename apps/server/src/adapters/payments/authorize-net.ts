import type { Database } from '../../db/client.ts';
import {
  amountToCents,
  apiError,
  centsToAmount,
  createAuthorizeNetApi,
  type AnetTransactionDetails,
  type AnetTransactionResponse,
} from './authorize-net-api.ts';
import { hashOf, type AuthorizeNet } from './authorize-net-context.ts';
import { loadOperation, recordOperation, type Operation } from './authorize-net-operations.ts';
import {
  createCustomerProfile,
  deletePaymentProfile,
  replacePaymentProfile,
} from './authorize-net-profiles.ts';
import {
  PaymentGatewayError,
  assertAmountCents,
  type ChargeResult,
  type DeclineReason,
  type PaymentGateway,
  type RefundResult,
} from './payment-gateway.ts';
import type { AuthorizeNetConfig } from './payments-config.ts';

export { ACCEPT_DATA_DESCRIPTOR } from './authorize-net-profiles.ts';
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

/**
 * Authorize.Net (DECISIONS R5): customer and payment profiles from Accept.js opaque data, charges
 * against a profile, refunds and voids. Idempotency: our key, hashed with the attempt number,
 * travels as `refId` and the invoice number; outcomes are stored per key
 * (authorize_net_operations), and a duplicate answer is looked up (docs/decisions/010).
 */
export function createAuthorizeNetGateway(options: AuthorizeNetGatewayOptions): PaymentGateway {
  const { config } = options;
  const anet: AuthorizeNet = {
    call: createAuthorizeNetApi(config, options.fetch),
    db: options.db,
    now: options.now,
    validationMode: config.validationMode,
  };
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
    createCustomerProfile: (input) => createCustomerProfile(anet, input),
    replacePaymentProfile: (input) => replacePaymentProfile(anet, input),
    deletePaymentProfile: (input) => deletePaymentProfile(anet, input),
    charge: (input) => charge(anet, input),
    refund: (input) => refund(anet, input),
  };
}

async function transactionDetails(
  anet: AuthorizeNet,
  transId: string,
): Promise<AnetTransactionDetails> {
  const response = await anet.call<{ transaction: AnetTransactionDetails }>(
    'getTransactionDetailsRequest',
    { transId },
  );
  if (response.messages.resultCode !== 'Ok' || !response.transaction) {
    throw apiError('getTransactionDetailsRequest', response);
  }
  return response.transaction;
}

/** Stores what a charge came to and answers it; a failure moves the key to its next attempt. */
async function settleCharge(
  anet: AuthorizeNet,
  operation: Operation,
  fate: ChargeFate,
): Promise<ChargeResult> {
  switch (fate.kind) {
    case 'approved':
      await recordOperation(anet, operation, {
        status: 'approved',
        transactionId: fate.transactionId,
      });
      return { status: 'approved', transactionId: fate.transactionId };
    case 'declined':
      await recordOperation(anet, operation, { status: 'declined', declineReason: fate.reason });
      return { status: 'declined', reason: fate.reason };
    case 'held':
      await recordOperation(anet, operation, { status: 'held', transactionId: fate.transactionId });
      throw new PaymentGatewayError(
        'held_for_review',
        `Authorize.Net holds transaction ${fate.transactionId} for review`,
      );
    case 'failed':
      // The processor answered with an error: nothing was charged, so the next try may send a
      // new invoice number without being refused as a duplicate of this one.
      await recordOperation(anet, operation, { status: 'retry', attempt: operation.attempt + 1 });
      throw new PaymentGatewayError('processor_error', `Authorize.Net: ${fate.detail}`);
  }
}

/** A charge against a payment profile, once per idempotency key whatever is retried. */
async function charge(
  anet: AuthorizeNet,
  input: Parameters<PaymentGateway['charge']>[0],
): Promise<ChargeResult> {
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
  const stored = await loadOperation(anet, base);
  const operation = { ...base, attempt: stored?.attempt ?? 1 };
  if (stored?.status === 'approved' && stored.transactionId) {
    return { status: 'approved', transactionId: stored.transactionId };
  }
  if (stored?.status === 'declined') {
    return { status: 'declined', reason: stored.declineReason ?? 'declined' };
  }
  if (stored?.status === 'held' && stored.transactionId) {
    return settleCharge(
      anet,
      operation,
      fateOfDetails(await transactionDetails(anet, stored.transactionId)),
    );
  }

  const invoiceNumber = invoiceNumberOf(operation.idempotencyKey, operation.attempt);
  const response = await anet.call<{ transactionResponse: AnetTransactionResponse }>(
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
      anet,
      operation,
      fateOfDetails(await transactionDetails(anet, originalOf(transaction))),
    );
  }
  return settleCharge(anet, operation, fateOfResponse(transaction));
}

/**
 * A refund (a void before settlement, which takes the whole charge), once per idempotency key; a
 * lost answer is found as a duplicate or as the voided charge.
 */
async function refund(
  anet: AuthorizeNet,
  input: Parameters<PaymentGateway['refund']>[0],
): Promise<RefundResult> {
  assertAmountCents(input.amountCents);
  const base = {
    idempotencyKey: input.idempotencyKey,
    kind: 'refund' as const,
    requestHash: hashOf(['refund', input.transactionId, input.amountCents]),
  };
  const stored = await loadOperation(anet, base);
  const operation = { ...base, attempt: stored?.attempt ?? 1 };
  if (stored?.status === 'refunded' && stored.transactionId) {
    return { status: 'refunded', refundId: stored.transactionId };
  }
  const refunded = async (refundId: string): Promise<RefundResult> => {
    await recordOperation(anet, operation, { status: 'refunded', transactionId: refundId });
    return { status: 'refunded', refundId };
  };

  const original = await transactionDetails(anet, input.transactionId);
  const status = original.transactionStatus;
  if (status === 'voided') {
    // Voided already (by this key, whose answer was lost): the money never moved.
    return refunded(input.transactionId);
  }
  const invoiceNumber = invoiceNumberOf(operation.idempotencyKey, operation.attempt);
  const transactionRequest = refundRequestOf(original, input, invoiceNumber);
  const response = await anet.call<{ transactionResponse: AnetTransactionResponse }>(
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
    const earlier = await transactionDetails(anet, originalOf(transaction));
    if (String(earlier.responseCode) === '1') return refunded(earlier.transId);
  } else if (transaction.responseCode === '2' || REFUND_REFUSED.has(reason)) {
    throw new PaymentGatewayError('refund_not_allowed', `Authorize.Net: ${errorText(transaction)}`);
  }
  await recordOperation(anet, operation, { status: 'retry', attempt: operation.attempt + 1 });
  throw new PaymentGatewayError('processor_error', `Authorize.Net: ${errorText(transaction)}`);
}

/** A void of an unsettled charge (whole only) or a refund of a settled one; else refused. */
function refundRequestOf(
  original: AnetTransactionDetails,
  input: Parameters<PaymentGateway['refund']>[0],
  invoiceNumber: string,
): Record<string, unknown> {
  const status = original.transactionStatus;
  if (UNSETTLED_STATUSES.has(status)) {
    if (amountToCents(original.authAmount) !== input.amountCents) {
      throw new PaymentGatewayError(
        'refund_not_allowed',
        'before settlement a charge can only be voided whole',
      );
    }
    return { transactionType: 'voidTransaction', refTransId: input.transactionId };
  }
  if (status === 'settledSuccessfully') {
    const last4 = /(\d{4})$/.exec(original.payment?.creditCard?.cardNumber ?? '')?.[1];
    if (!last4) throw new PaymentGatewayError('unexpected_response', 'no card on the charge');
    return {
      transactionType: 'refundTransaction',
      amount: centsToAmount(input.amountCents),
      payment: { creditCard: { cardNumber: last4, expirationDate: 'XXXX' } },
      refTransId: input.transactionId,
      order: { invoiceNumber, description: 'Refund' },
      transactionSettings: DUPLICATE_WINDOW_SETTING,
    };
  }
  throw new PaymentGatewayError('refund_not_allowed', `the charge is ${status}`);
}

const DUPLICATE_WINDOW_SETTING = {
  setting: [{ settingName: 'duplicateWindow', settingValue: String(DUPLICATE_WINDOW_SECONDS) }],
};

/** Both fields are at most 20 characters: 80 bits of the key and the attempt number. */
export function invoiceNumberOf(idempotencyKey: string, attempt: number): string {
  return hashOf([idempotencyKey, attempt]).slice(0, 20);
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
