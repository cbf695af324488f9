import { and, between, eq, type SQL } from 'drizzle-orm';
import { payments } from '../../db/schema.ts';

/**
 * The rows the history and the year zip show (000 §4, R9): the user's own successful payments
 * whose business date falls in `year`. `activation_date` is already a business date, so the year
 * is its calendar year; the (user, date) index serves the range.
 */
export function paymentsInYear(userId: string, year: number): SQL {
  return and(
    eq(payments.userId, userId),
    eq(payments.status, 'succeeded'),
    between(payments.activationDate, `${year}-01-01`, `${year}-12-31`),
  )!;
}
