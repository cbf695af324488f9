import { and, eq } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { TStaffActionResult } from '@dealerpass/domain/admin/account-actions';
import type { Database } from '../../../db/client.ts';
import { payments } from '../../../db/schema.ts';
import { isCheckPayment } from '@dealerpass/domain/billing/receipt-text';
import { AppError } from '../../../errors/app-error.ts';
import { recordChargebackIn } from '../../billing/record-chargeback.ts';
import {
  staffEventDetails,
  takeStaffAction,
  type StaffActionInput,
} from '../accounts/take-staff-action.ts';

/**
 * A chargeback the card network reported, recorded by billing staff (R12): R4's 25-dollar fee on
 * the balance and the account inactive (a blocked one stays blocked, decision 019), through the
 * same ledger code as the gateway's report, with the member named on its account events. A
 * payment already charged back is 409 ACTION_NOT_ALLOWED; one refunded in full is 409
 * CHARGEBACK_REFUNDED_IN_FULL (R15: staff contest the dispute with the refund); one with a refund
 * still at the gateway is 409 ACTION_IN_PROGRESS; another account's payment is 404. After a
 * partial refund the chargeback covers the rest only.
 */
export async function recordStaffChargeback(
  db: Database,
  input: Omit<StaffActionInput, 'action'> & { paymentId: string },
): Promise<TStaffActionResult> {
  const { paymentId, ...action } = input;
  return takeStaffAction(db, { ...action, action: 'chargeback' }, async (tx, user) => {
    const [payment] = await tx
      .select({ id: payments.id, gatewayTransactionId: payments.gatewayTransactionId })
      .from(payments)
      .where(and(eq(payments.id, paymentId), eq(payments.userId, user.id)));
    if (!payment) throw new AppError(ERROR_CODES.NOT_FOUND);
    // R14: a check has no card network behind it; a bounced one is recorded as a returned check.
    if (isCheckPayment(payment)) throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED);
    const recorded = await recordChargebackIn(tx, {
      paymentId,
      now: input.now,
      actor: 'staff',
      details: { ...staffEventDetails(input.actor), reason: input.reason },
    });
    // R15: a payment refunded in full is contested with the refund, not charged back.
    if (recorded.status === 'refundedInFull') {
      throw new AppError(ERROR_CODES.CHARGEBACK_REFUNDED_IN_FULL);
    }
    if (recorded.status === 'refundInFlight') throw new AppError(ERROR_CODES.ACTION_IN_PROGRESS);
    if (recorded.status !== 'recorded') throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED);
    return { after: { paymentId, chargedBackCents: recorded.coveredCents } };
  });
}
