import { and, eq } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { TRefundResult } from '@dealerpass/domain/admin/account-actions';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import { PaymentGatewayError } from '../../../adapters/payments/payment-gateway.ts';
import type { Database, Transaction } from '../../../db/client.ts';
import { accountEvents, billingPeriods, payments, refunds, users } from '../../../db/schema.ts';
import { isCheckPayment } from '@dealerpass/domain/billing/receipt-text';
import { AppError } from '../../../errors/app-error.ts';
import { addBalanceEntries } from '../../billing/account-balance.ts';
import { CHARGE_LEASE_MS } from '../../billing/charge-lease.ts';
import type { BillingDeps } from '../../billing/ledger/billing-deps.ts';
import { refundableCents, staffRefundedCents } from '../../billing/payment-refunds.ts';
import { enqueueMail } from '../../mail/enqueue-mail.ts';
import { refundMail, renderRefundReceipt } from '../../receipts/refund-receipt.ts';
import { findStaffAction, writeStaffAudit } from '../audit/staff-audit.ts';
import { oncePerKey } from '../../request-keys/once-per-key.ts';
import {
  accountState,
  lockUser,
  staffEventDetails,
  staffRequest,
  type StaffActionInput,
} from '../accounts/take-staff-action.ts';

type RefundDeps = Pick<
  BillingDeps,
  'db' | 'payments' | 'company' | 'mailKind' | 'timeZone' | 'now'
>;
type RefundRow = typeof refunds.$inferSelect;
type RefundInput = Omit<StaffActionInput, 'action' | 'reason'> & {
  paymentId: string;
  amountCents: number;
  reason: string;
};

/**
 * A staff refund of (part of) an approved payment (R12, decision 026), through the gateway
 * exactly once:
 * 1. under a lock on the payment, what is left to refund is checked (its amount less every staff
 *    refund, in flight or done; nothing of a payment the trial cancellation refunded) and a
 *    `pending` refund row is written for the request key, with its receipt;
 * 2. the gateway is asked with the key `staff-refund:<refund id>`;
 * 3. in one transaction the refund succeeds, the balance entries, the account event, the
 *    dealer's e-mail and the audit row are written. A refusal marks it failed (502
 *    REFUND_FAILED) and records nothing as refunded.
 * The request key is recorded with the pending row (`oncePerKey`, decision 031): the same request
 * again answers the first result, the key with another payment or amount is 409; a refund still
 * pending from a request that stopped (a crash, a gateway that did not answer) is sent again with
 * its own key, which the gateway answers with the first outcome, once the first request's time
 * has passed.
 */
export async function refundPayment(deps: RefundDeps, input: RefundInput): Promise<TRefundResult> {
  const opened = await oncePerKey(deps.db, staffRequest({ ...input, action: 'refund' }), {
    act: async (tx) => ({ refundId: await openRefund(deps, tx, input), fresh: true }),
    repeat: (first) => ({ ...first, fresh: false }),
  });
  const [row] = await deps.db.select().from(refunds).where(eq(refunds.id, opened.refundId));
  if (!row) throw new Error('the refund row vanished');
  if (row.status === 'succeeded') return answer(deps.db, row, true);
  if (row.status === 'failed') throw new AppError(ERROR_CODES.REFUND_FAILED);
  if (!opened.fresh && deps.now().getTime() - row.createdAt.getTime() < CHARGE_LEASE_MS) {
    // Another request (a double click) is waiting for the gateway with this very refund.
    throw new AppError(ERROR_CODES.ACTION_IN_PROGRESS);
  }

  const [payment] = await deps.db.select().from(payments).where(eq(payments.id, row.paymentId));
  if (!payment) throw new Error('the refunded payment vanished');
  let gatewayRefundId: string;
  try {
    const result = await deps.payments.refund({
      transactionId: payment.gatewayTransactionId,
      amountCents: row.amountCents,
      idempotencyKey: `staff-refund:${row.id}`,
    });
    gatewayRefundId = result.refundId;
  } catch (error) {
    if (error instanceof PaymentGatewayError && !error.retryable) {
      await failRefund(deps, row, input, error.code);
      throw new AppError(ERROR_CODES.REFUND_FAILED, { cause: error });
    }
    // No answer: the refund may have happened. It stays pending, and the same key sends it again.
    if (error instanceof PaymentGatewayError) {
      throw new AppError(ERROR_CODES.ACTION_IN_PROGRESS, { cause: error });
    }
    throw error;
  }
  const settled = await settleRefund(deps, row, gatewayRefundId, input);
  return answer(deps.db, settled.row, settled.repeated);
}

/** Step 1: the pending refund, in the transaction that records the request key. */
async function openRefund(deps: RefundDeps, tx: Transaction, input: RefundInput): Promise<string> {
  const now = deps.now();
  // The account, then the payment (docs/decisions/028). The payment's row orders every refund
  // of it: what is left is read under this lock.
  const user = await lockUser(tx, input.userId);
  const [payment] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.id, input.paymentId), eq(payments.userId, input.userId)))
    .for('update');
  if (!payment) throw new AppError(ERROR_CODES.NOT_FOUND);
  // R14: a check is not refunded through the card gateway; a bounced one is a returned check.
  if (isCheckPayment(payment)) throw new AppError(ERROR_CODES.REFUND_NOT_ALLOWED);
  if (input.amountCents > (await refundableCents(tx, payment.id))) {
    throw new AppError(ERROR_CODES.REFUND_NOT_ALLOWED);
  }
  const [period] = await tx
    .select()
    .from(billingPeriods)
    .where(eq(billingPeriods.id, payment.billingPeriodId));
  const id = crypto.randomUUID();
  const receiptPdf = renderRefundReceipt({
    company: deps.company,
    user,
    payment,
    period: period ?? null,
    refund: {
      id,
      amountCents: input.amountCents,
      earlierRefundsCents: await staffRefundedCents(tx, payment.id, { inFlight: false }),
    },
    refundDate: toIsoDate(calendarDateIn(now, deps.timeZone)),
    now,
  });
  await tx.insert(refunds).values({
    id,
    paymentId: payment.id,
    userId: input.userId,
    amountCents: input.amountCents,
    status: 'pending',
    requestKey: input.requestKey,
    reason: input.reason,
    staffId: input.actor.staffId,
    receiptPdf,
    createdAt: now,
  });
  return id;
}

/**
 * Step 3: the refund as succeeded, in one transaction with what follows from it. The balance
 * gets two entries of the same amount (decision 026): the money given back (`payment`, positive:
 * it undoes that much of the payment) and the charge it forgives (`credit`, negative), so what
 * the account owes is unchanged: a refund neither makes the dealer owe the refunded month again
 * nor leaves a credit on top of the money returned.
 */
async function settleRefund(
  deps: RefundDeps,
  pending: RefundRow,
  gatewayRefundId: string,
  input: RefundInput,
): Promise<{ row: RefundRow; repeated: boolean }> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    // The account, then the refund (docs/decisions/028).
    const user = await lockUser(tx, pending.userId);
    const [current] = await tx
      .select()
      .from(refunds)
      .where(eq(refunds.id, pending.id))
      .for('update');
    if (!current) throw new Error('the refund row vanished');
    if (current.status !== 'pending') return { row: current, repeated: true };
    const [payment] = await tx.select().from(payments).where(eq(payments.id, current.paymentId));
    if (!payment) throw new Error('the refunded payment vanished');
    const before = await accountState(tx, user);
    const refundedBefore = await staffRefundedCents(tx, payment.id, { inFlight: false });
    const [row] = await tx
      .update(refunds)
      .set({ status: 'succeeded', gatewayRefundId, settledAt: now })
      .where(eq(refunds.id, current.id))
      .returning();
    if (!row) throw new Error('the refund row vanished');
    await addBalanceEntries(
      tx,
      [
        {
          userId: user.id,
          kind: 'payment',
          amountCents: row.amountCents,
          source: `refund:${row.id}`,
        },
        {
          userId: user.id,
          kind: 'credit',
          amountCents: -row.amountCents,
          source: `refund-credit:${row.id}`,
        },
      ],
      now,
    );
    await tx.insert(accountEvents).values({
      userId: user.id,
      event: 'refund',
      actor: 'staff',
      at: now,
      details: {
        ...staffEventDetails(input.actor),
        paymentId: payment.id,
        refundId: row.id,
        amountCents: row.amountCents,
        reason: row.reason,
      },
    });
    await enqueueMail(
      tx,
      refundMail({
        company: deps.company,
        user,
        payment,
        refund: { id: row.id, amountCents: row.amountCents, earlierRefundsCents: refundedBefore },
      }),
      deps.mailKind,
    );
    await writeStaffAudit(tx, {
      actor: input.actor,
      action: 'refund',
      userId: user.id,
      before: { ...before, paymentId: payment.id, paymentRefundedCents: refundedBefore },
      after: {
        ...(await accountState(tx, user)),
        paymentId: payment.id,
        refundId: row.id,
        amountCents: row.amountCents,
        paymentRefundedCents: refundedBefore + row.amountCents,
      },
      reason: row.reason,
      requestKey: row.requestKey,
      at: now,
    });
    return { row, repeated: false };
  });
}

/** A refusal by the gateway: the refund failed, nothing is refunded, and the attempt is audited. */
async function failRefund(
  deps: RefundDeps,
  pending: RefundRow,
  input: RefundInput,
  failure: string,
): Promise<void> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    // The account, then the refund (docs/decisions/028).
    const user = await lockUser(tx, pending.userId);
    const [current] = await tx
      .select()
      .from(refunds)
      .where(eq(refunds.id, pending.id))
      .for('update');
    if (current?.status !== 'pending') return;
    await tx
      .update(refunds)
      .set({ status: 'failed', failureReason: failure, settledAt: now })
      .where(eq(refunds.id, current.id));
    const state = await accountState(tx, user);
    await writeStaffAudit(tx, {
      actor: input.actor,
      action: 'refund',
      userId: user.id,
      before: { ...state, paymentId: current.paymentId },
      after: {
        ...state,
        paymentId: current.paymentId,
        refundId: current.id,
        refundStatus: 'failed',
        failure,
      },
      reason: current.reason,
      requestKey: current.requestKey,
      at: now,
    });
  });
}

/** What a succeeded refund answers, first time or repeated. */
async function answer(db: Database, row: RefundRow, repeated: boolean): Promise<TRefundResult> {
  const audit = await findStaffAction(db, row.requestKey);
  const [user] = await db.select().from(users).where(eq(users.id, row.userId));
  const [payment] = await db.select().from(payments).where(eq(payments.id, row.paymentId));
  if (!audit || !user || !payment) throw new Error('a settled refund without its audit row');
  return {
    auditId: audit.id,
    repeated,
    account: await accountState(db, user),
    refund: {
      refundId: row.id,
      paymentId: row.paymentId,
      amountCents: row.amountCents,
      status: 'succeeded',
      paymentRefundedCents: await staffRefundedCents(db, payment.id, { inFlight: false }),
      refundableCents: await refundableCents(db, payment.id),
    },
  };
}
