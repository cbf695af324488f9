import type { Database } from '../../db/client.ts';
import { promotionCodes } from '../../db/schema.ts';
import { DEMO_PROMOTIONS } from './demo-promotions.ts';

const DAY_MS = 86_400_000;

/** Adds the demo promotion codes that are missing; existing codes are left as they are. */
export async function seedDemoPromotions(db: Database, now: Date): Promise<number> {
  const inserted = await db
    .insert(promotionCodes)
    .values(
      DEMO_PROMOTIONS.map((promo) => ({
        code: promo.code,
        kind: promo.kind,
        value: promo.value,
        description: promo.description,
        expiresAt:
          promo.expiresInDays === null
            ? null
            : new Date(now.getTime() + promo.expiresInDays * DAY_MS),
        maxRedemptions: promo.maxRedemptions,
        requiresCard: promo.requiresCard,
        createdAt: now,
      })),
    )
    .onConflictDoNothing({ target: promotionCodes.code })
    .returning({ code: promotionCodes.code });
  return inserted.length;
}
