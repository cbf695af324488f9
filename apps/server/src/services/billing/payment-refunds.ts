import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { payments, refunds } from '../../db/schema.ts';

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
 * What may still be refunded of a payment (R12), as SQL over "payments": nothing of one that is
 * not an approved payment any more (the trial cancellation refunded it, R4), that the trial
 * cancellation has claimed, or that was charged back (the card network gave it back already);
 * otherwise its amount less every staff refund, in flight or done. One definition for the
 * refund's check and the console's account page.
 */
export function refundableCentsSql() {
  return sql<number>`(case
    when ${payments.status} <> 'succeeded'
      or ${payments.refundClaimedAt} is not null
      or ${payments.chargedBackAt} is not null then 0
    else ${payments.amountCents} - ${staffRefundsSql(['pending', 'succeeded'])}
    end)::int`;
}

/**
 * What the staff refunds of a payment returned so far, as SQL over "payments": the succeeded
 * `refunds` rows (a pending or failed one returned nothing). The console's payment list.
 */
export function staffRefundedCentsSql() {
  return sql<number>`${staffRefundsSql(['succeeded'])}::int`;
}

/**
 * The sum of a payment's staff refunds in these states. Its id is spelled out: drizzle leaves a
 * single table's columns unqualified, and the subquery has an id of its own.
 */
function staffRefundsSql(statuses: ('pending' | 'succeeded')[]) {
  const states = sql.join(
    statuses.map((status) => sql`${status}`),
    sql`, `,
  );
  return sql`coalesce((select sum(r.amount_cents) from refunds r
    where r.payment_id = "payments"."id" and r.status in (${states})), 0)`;
}

/** The same for one payment; under the payment's lock when `db` holds it. */
export async function refundableCents(
  db: Database | Transaction,
  paymentId: string,
): Promise<number> {
  const [row] = await db
    .select({ cents: refundableCentsSql() })
    .from(payments)
    .where(eq(payments.id, paymentId));
  return Number(row?.cents ?? 0);
}
