import { and, between, eq, inArray, type SQL } from 'drizzle-orm';
import { payments } from '../../db/schema.ts';

/**
 * The rows the history and the year zip show (000 §4, R9): the user's own successful payments
 * whose business date falls in `year`, with a sign-up payment R4's trial cancellation refunded
 * (shown as refunded, never as if it had not been). `activation_date` is already a business date, so the year
 * is its calendar year; the (user, date) index serves the range.
 */
export function paymentsInYear(userId: string, year: number): SQL {
  return and(
    eq(payments.userId, userId),
    inArray(payments.status, ['succeeded', 'refunded']),
    between(payments.activationDate, `${year}-01-01`, `${year}-12-31`),
  )!;
}
