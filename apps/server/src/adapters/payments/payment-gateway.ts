import type { TCardType } from '@dealerpass/domain/validation/card';

/**
 * The payment gateway port (DECISIONS R5, docs/decisions/010-payment-gateways.md): the embedded
 * sandbox gateway by default, Authorize.Net when configured. Card numbers and CVVs never pass
 * through it: a profile is made from the one-time token the browser got from the gateway.
 * Amounts are integer cents.
 */
export interface PaymentGateway {
  readonly kind: 'sandbox' | 'authorize-net';
  /** How many charges the billing run may have in flight at this gateway at once. */
  readonly chargeConcurrency: number;
  /** What the browser needs to tokenize a card with this gateway; safe to publish in the page. */
  publicConfig(): PaymentPublicConfig;
  /** A new customer profile holding one payment profile made from the browser's token. */
  createCustomerProfile(input: CreateCustomerProfileInput): Promise<CustomerProfile>;
  /** A new payment profile from the token; the customer's other payment profiles are removed. */
  replacePaymentProfile(input: ReplacePaymentProfileInput): Promise<PaymentProfile>;
  /** Removes a payment profile; removing one that is already gone is not an error. */
  deletePaymentProfile(input: DeletePaymentProfileInput): Promise<void>;
  /**
   * Charges a payment profile. The same idempotency key returns the first outcome and never
   * charges twice. A decline is a result; a processor or network failure throws a
   * PaymentGatewayError (retry it with the same key when `retryable`).
   */
  charge(input: ChargeInput): Promise<ChargeResult>;
  /** Refunds (part of) an approved charge; idempotent by key like charge. */
  refund(input: RefundInput): Promise<RefundResult>;
}

export type PaymentPublicConfig =
  | { kind: 'sandbox'; tokenUrl: string }
  | { kind: 'authorize-net'; acceptJsUrl: string; apiLoginId: string; clientKey: string };

/** What is kept and shown of a card: never more than brand, last four digits and expiry. */
export interface CardSummary {
  brand: TCardType;
  last4: string;
  /** MMYY */
  expiration: string;
}

export interface CreateCustomerProfileInput {
  accountId: string;
  email: string;
  paymentToken: string;
}

export interface PaymentProfile {
  paymentProfileId: string;
  card: CardSummary;
}

export interface CustomerProfile extends PaymentProfile {
  customerProfileId: string;
}

export interface ReplacePaymentProfileInput {
  customerProfileId: string;
  paymentToken: string;
}

export interface DeletePaymentProfileInput {
  customerProfileId: string;
  paymentProfileId: string;
}

export interface ChargeInput {
  customerProfileId: string;
  paymentProfileId: string;
  amountCents: number;
  idempotencyKey: string;
  description: string;
}

export type DeclineReason = 'declined' | 'insufficient_funds' | 'expired_card';

export type ChargeResult =
  { status: 'approved'; transactionId: string } | { status: 'declined'; reason: DeclineReason };

export interface RefundInput {
  /** The approved charge's transaction id. */
  transactionId: string;
  amountCents: number;
  idempotencyKey: string;
}

export interface RefundResult {
  status: 'refunded';
  refundId: string;
}

export type PaymentGatewayErrorCode =
  /** The gateway could not be reached or did not answer in time. */
  | 'network_error'
  /** The processor failed; the charge did not happen. */
  | 'processor_error'
  /** Authorize.Net holds the charge for fraud review; retrying with the same key reads its fate. */
  | 'held_for_review'
  /** The gateway answered something we do not understand. */
  | 'unexpected_response'
  /** The payment token is unknown, used or expired: the browser must tokenize the card again. */
  | 'invalid_token'
  /** No such customer, payment profile or transaction. */
  | 'not_found'
  /** The idempotency key was used before for a different request. */
  | 'idempotency_conflict'
  /** The refund is larger than what is left of the charge, or the charge cannot be refunded. */
  | 'refund_not_allowed'
  /** The card brand is not one we accept. */
  | 'card_not_accepted'
  /** The gateway's check of a new card (Authorize.Net's validation mode) declined it. */
  | 'card_declined'
  /** Our credentials or request were refused: a configuration error. */
  | 'configuration_error';

const RETRYABLE: ReadonlySet<PaymentGatewayErrorCode> = new Set([
  'network_error',
  'processor_error',
  'held_for_review',
  'unexpected_response',
]);

/**
 * The one error type of the port. `retryable` says whether the same call with the same
 * idempotency key may succeed later. When it is thrown, no charge or refund has completed.
 */
export class PaymentGatewayError extends Error {
  override name = 'PaymentGatewayError';
  readonly code: PaymentGatewayErrorCode;
  readonly retryable: boolean;

  constructor(code: PaymentGatewayErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.retryable = RETRYABLE.has(code);
  }
}

export function isRetryablePaymentError(error: unknown): boolean {
  return error instanceof PaymentGatewayError && error.retryable;
}

/** Integer cents, positive and below a million dollars: anything else is a bug of the caller. */
export function assertAmountCents(amountCents: number): void {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0 || amountCents >= 100_000_000) {
    throw new RangeError(`amountCents must be a positive integer of cents, got ${amountCents}`);
  }
}
