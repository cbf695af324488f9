import { desc, sql } from 'drizzle-orm';
import { promotionStatus } from '@dealerpass/domain/billing/promotion';
import { RECENT_REDEMPTIONS, type TStaffPromotion } from '@dealerpass/domain/admin/business-views';
import type { Database } from '../../../db/client.ts';
import { promotionCodes } from '../../../db/schema.ts';

type PromotionRow = typeof promotionCodes.$inferSelect;

/** A promotion code as the console shows it, its redemptions aside. */
export function promotionView(
  row: PromotionRow,
): Omit<TStaffPromotion, 'recentRedemptions' | 'status'> {
  return {
    code: row.code,
    kind: row.kind,
    value: row.value,
    description: row.description,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    maxRedemptions: row.maxRedemptions,
    redemptionCount: row.redemptionCount,
    requiresCard: row.requiresCard,
    disabled: row.disabledAt !== null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Every promotion code, newest first, with its redemption count, its newest redemptions (the
 * account's e-mail, the discount, the date) and its status at `now` (the domain's
 * promotionStatus, the rule sign-up obeys): R12's promotion page.
 */
export async function listPromotions(db: Database, now: Date): Promise<TStaffPromotion[]> {
  const codes = await db.select().from(promotionCodes).orderBy(desc(promotionCodes.createdAt));
  const recent = (await db.execute(sql`
    select code, email, discount_cents, redeemed_at from (
      select r.code, u.email, r.discount_cents, r.redeemed_at,
             row_number() over (partition by r.code order by r.redeemed_at desc, r.id) as n
      from promotion_redemptions r join users u on u.id = r.user_id
    ) ranked
    where n <= ${RECENT_REDEMPTIONS}
    order by redeemed_at desc`)) as unknown as {
    rows: { code: string; email: string; discount_cents: number; redeemed_at: Date | string }[];
  };
  const byCode = new Map<string, TStaffPromotion['recentRedemptions']>();
  for (const row of recent.rows) {
    const list = byCode.get(row.code) ?? [];
    list.push({
      email: row.email,
      discountCents: Number(row.discount_cents),
      redeemedAt: new Date(row.redeemed_at).toISOString(),
    });
    byCode.set(row.code, list);
  }
  return codes.map((row) => ({
    ...promotionView(row),
    recentRedemptions: byCode.get(row.code) ?? [],
    status: promotionStatus(
      {
        expiresAt: row.expiresAt,
        maxRedemptions: row.maxRedemptions,
        redemptions: row.redemptionCount,
        disabledAt: row.disabledAt,
      },
      now,
    ),
  }));
}
