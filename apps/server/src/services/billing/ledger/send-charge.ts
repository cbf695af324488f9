import { PaymentGatewayError } from '../../../adapters/payments/payment-gateway.ts';
import type { BillingDeps, ClaimedRenewal } from './billing-deps.ts';

/** What the gateway made of a charge: recorded now (approved, declined) or sent again later. */
export type Outcome =
  | { status: 'approved'; transactionId: string }
  | { status: 'declined'; reason: string }
  | { status: 'retry' };

/**
 * Sends one claimed charge. A decline is an outcome; so is a gateway refusal that no retry can
 * change (a card removed since the attempt was claimed, say). A retryable failure leaves the
 * lease to run out, and a later run sends the same request again.
 */
export async function sendCharge(
  deps: Pick<BillingDeps, 'payments' | 'log'>,
  renewal: ClaimedRenewal,
): Promise<Outcome> {
  if (renewal.amountCents === 0) return { status: 'approved', transactionId: 'no-charge' };
  try {
    return await deps.payments.charge({
      customerProfileId: renewal.customerProfileId,
      paymentProfileId: renewal.paymentProfileId,
      amountCents: renewal.amountCents,
      idempotencyKey: renewal.idempotencyKey,
      description:
        renewal.kind === 'reactivation'
          ? 'DealerPass reactivation'
          : renewal.kind === 'change'
            ? 'DealerPass subscription change (prorated)'
            : 'DealerPass monthly subscription',
    });
  } catch (error) {
    if (error instanceof PaymentGatewayError) {
      if (error.retryable) {
        deps.log.warn({ userId: renewal.userId, code: error.code }, 'charge will be retried');
        return { status: 'retry' };
      }
      return { status: 'declined', reason: error.code };
    }
    throw error;
  }
}
