import { eq } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { TDisablePromotionRequest } from '@dealerpass/domain/admin/console-requests';
import { normalizePromotionCode } from '@dealerpass/domain/billing/promotion';
import type { Database } from '../../../db/client.ts';
import { promotionCodes } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import { writeStaffAudit, type StaffActor } from '../audit/staff-audit.ts';
import type { PromotionActionResult } from './create-promotion.ts';
import { oncePerKey } from '../../request-keys/once-per-key.ts';
import { promotionView } from './list-promotions.ts';

/**
 * A billing member disables a promotion code with a reason (R12): from then on the sign-up
 * refuses it like an expired one; its redemptions stay. Unknown: 404; already disabled: 409.
 * Once per request key (decision 031).
 */
export async function disablePromotion(
  deps: { db: Database; now: () => Date },
  actor: StaffActor,
  code: string,
  request: TDisablePromotionRequest,
): Promise<PromotionActionResult> {
  const now = deps.now();
  const normalized = normalizePromotionCode(code);
  const keyed = {
    owner: actor,
    action: 'disablePromotion',
    target: { code: normalized },
    body: request,
  };
  return oncePerKey<PromotionActionResult>(deps.db, keyed, {
    act: async (tx) => {
      const [current] = await tx
        .select()
        .from(promotionCodes)
        .where(eq(promotionCodes.code, normalized))
        .for('update');
      if (!current) throw new AppError(ERROR_CODES.NOT_FOUND);
      if (current.disabledAt) throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED);
      const [row] = await tx
        .update(promotionCodes)
        .set({ disabledAt: now })
        .where(eq(promotionCodes.code, normalized))
        .returning();
      const promotion = promotionView(row!);
      const audit = await writeStaffAudit(tx, {
        actor,
        action: 'disablePromotion',
        before: promotionView(current),
        after: promotion,
        reason: request.reason,
        requestKey: request.requestKey,
        at: now,
      });
      return { auditId: audit.id, promotion };
    },
  });
}
