import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { IPromotion } from '@dealerpass/domain/billing/promotion';
import type { Database, Transaction } from '../../db/client.ts';
import { promotionCodes } from '../../db/schema.ts';

type Db = Database | Transaction;

/** A promotion code's row as the domain's rules read it, or null for an unknown code. */
export async function findPromotion(
  db: Db,
  code: string,
  lock = false,
): Promise<IPromotion | null> {
  const query = db.select().from(promotionCodes).where(eq(promotionCodes.code, code)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) return null;
  return {
    code: row.code,
    kind: row.kind,
    value: row.value,
    expiresAt: row.expiresAt,
    maxRedemptions: row.maxRedemptions,
    redemptions: row.redemptionCount,
    requiresCard: row.requiresCard,
    disabledAt: row.disabledAt,
  };
}

/**
 * Holds one redemption of a code for a sign-up in flight. The count never passes the limit
 * (a check in the update and in the table), so two sign-ups cannot both take the last one.
 * Returns false when none is left.
 */
export async function holdRedemption(tx: Transaction, code: string): Promise<boolean> {
  const held = await tx
    .update(promotionCodes)
    .set({ redemptionCount: sql`${promotionCodes.redemptionCount} + 1` })
    .where(
      and(
        eq(promotionCodes.code, code),
        or(
          isNull(promotionCodes.maxRedemptions),
          gt(promotionCodes.maxRedemptions, promotionCodes.redemptionCount),
        ),
      ),
    )
    .returning({ code: promotionCodes.code });
  return held.length > 0;
}

/** Gives back a held redemption when its sign-up failed. */
export async function releaseRedemption(tx: Transaction, code: string): Promise<void> {
  await tx
    .update(promotionCodes)
    .set({ redemptionCount: sql`greatest(${promotionCodes.redemptionCount} - 1, 0)` })
    .where(eq(promotionCodes.code, code));
}
