import { sql } from 'drizzle-orm';
import type { users } from '../../db/schema.ts';

/** The addresses an account's e-mails go to (its own and the alternate), as compared: lower-case. */
export function accountAddresses(user: Pick<typeof users.$inferSelect, 'email' | 'altEmail'>) {
  return [user.email, user.altEmail]
    .filter((address): address is string => Boolean(address?.trim()))
    .map((address) => address.trim().toLowerCase());
}

/**
 * What the staff refunds of a payment returned so far: the succeeded `refunds` rows (a pending or
 * failed one returned nothing). For a select of `payments`; its id is spelled out, as drizzle
 * leaves a single table's columns unqualified and the subquery has an id of its own.
 */
export function paymentRefundedCents() {
  return sql<number>`coalesce((select sum(r.amount_cents) from refunds r where r.payment_id = "payments"."id" and r.status = 'succeeded'), 0)::int`;
}

/** The console's link to a payment's stored receipt. */
export function receiptPath(userId: string, paymentId: string): string {
  return `/api/admin/accounts/${userId}/payments/${paymentId}/receipt`;
}
