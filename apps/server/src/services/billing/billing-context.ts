import { eq } from 'drizzle-orm';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import { PaymentGatewayError } from '../../adapters/payments/payment-gateway.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { subscriptions } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import type { BillingDeps } from './ledger/billing-deps.ts';

/** What the billing API's services need: the billing run's dependencies (same gateway, clock, mail). */
export type BillingApiDeps = BillingDeps;

export async function getSubscriptionRow(db: Database | Transaction, userId: string, lock = false) {
  const query = db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/**
 * A gateway failure while saving a card (000 §8): a refused or unusable card is the card text
 * (400), anything else the payment-profile text (502).
 */
export function profileFailure(error: unknown): AppError {
  if (error instanceof PaymentGatewayError) {
    const cardProblem =
      error.code === 'invalid_token' ||
      error.code === 'card_declined' ||
      error.code === 'card_not_accepted';
    if (cardProblem) {
      return new AppError(ERROR_CODES.CREDIT_CARD_NOT_VALID, {
        cause: error,
        errors: [
          { source: 'paymentToken', message: errorMessage(ERROR_CODES.CREDIT_CARD_NOT_VALID) },
        ],
      });
    }
    return new AppError(ERROR_CODES.PAYMENT_PROFILE_FAILED, { cause: error });
  }
  return new AppError(ERROR_CODES.PAYMENT_PROFILE_FAILED, { cause: error });
}
