import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import type { payments } from '../../db/schema.ts';
import { refunds } from '../../db/schema.ts';

/**
 * What staff refunds took of a payment (R12): the succeeded ones, and with `inFlight` those still
 * waiting for the gateway too, which count against what is left to refund until they fail.
 */
export async function staffRefundedCents(
  db: Database | Transaction,
  paymentId: string,
  options: { inFlight: boolean },
): Promise<number> {
  const [row] = await db
    .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .where(
      and(
        eq(refunds.paymentId, paymentId),
        inArray(refunds.status, options.inFlight ? ['pending', 'succeeded'] : ['succeeded']),
      ),
    );
  return Number(row?.cents ?? 0);
}

/**
 * What may still be refunded of a payment (R12): nothing of one the trial cancellation refunded
 * or has claimed to refund (R4: it refunds the rest of the charge) and otherwise its amount less
 * every staff refund, in flight or done.
 */
export async function refundableCents(
  db: Database | Transaction,
  payment: Pick<typeof payments.$inferSelect, 'id' | 'status' | 'amountCents' | 'refundClaimedAt'>,
): Promise<number> {
  if (payment.status !== 'succeeded' || payment.refundClaimedAt !== null) return 0;
  return payment.amountCents - (await staffRefundedCents(db, payment.id, { inFlight: true }));
}
