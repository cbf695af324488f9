import { eq, getTableColumns, sql } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { Database, Transaction } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { balanceCentsOfUser } from '../billing/account-balance.ts';
import { BILLING_CYCLE_SQL, type BillingCycle, type UserRow } from './serialize-user.ts';

/**
 * The signed-in user's own row. The session points at it (docs/decisions/009); if it is gone,
 * the session is as good as unknown.
 */
/**
 * The account's columns, its balance (derived from its entries, never stored) and its
 * subscription's cycle (the next bill date's source).
 */
export const USER_ROW_FIELDS = {
  ...getTableColumns(users),
  balanceCents: balanceCentsOfUser(),
  billingCycle: sql<BillingCycle | null>`${sql.raw(BILLING_CYCLE_SQL)}`,
};

export async function getUserRow(db: Database | Transaction, userId: string): Promise<UserRow> {
  const [row] = await db.select(USER_ROW_FIELDS).from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw new AppError(ERROR_CODES.UNAUTHORIZED);
  return row;
}
