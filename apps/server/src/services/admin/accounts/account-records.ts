import type { users } from '../../../db/schema.ts';

/** The addresses an account's e-mails go to (its own and the alternate), as compared: lower-case. */
export function accountAddresses(user: Pick<typeof users.$inferSelect, 'email' | 'altEmail'>) {
  return [user.email, user.altEmail]
    .filter((address): address is string => Boolean(address?.trim()))
    .map((address) => address.trim().toLowerCase());
}

/** The console's link to a payment's stored receipt. */
export function receiptPath(userId: string, paymentId: string): string {
  return `/api/admin/accounts/${userId}/payments/${paymentId}/receipt`;
}
