import { ERROR_CODES } from '@dealerpass/domain/messages';
import {
  STAFF_REQUEST_MESSAGES,
  type TCreatePromotionRequest,
} from '@dealerpass/domain/admin/console-requests';
import type { Database } from '../../../db/client.ts';
import { promotionCodes } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import type { StaffActor } from '../audit/staff-audit.ts';
import { writeStaffAudit } from '../audit/staff-audit.ts';
import { oncePerKey } from '../../request-keys/once-per-key.ts';
import { promotionView } from './list-promotions.ts';

export interface PromotionActionResult {
  auditId: number;
  promotion: ReturnType<typeof promotionView>;
}

/**
 * A billing member creates a promotion code (R12): stored upper-case, created by their e-mail,
 * audited in the same transaction. A code that exists (enabled, disabled or seeded) is 409
 * PROMO_CODE_EXISTS: a code's history is never overwritten. Once per request key (decision 031):
 * the key again with another code or value is 409, not a second "created".
 */
export async function createPromotion(
  deps: { db: Database; now: () => Date },
  actor: StaffActor,
  request: TCreatePromotionRequest,
): Promise<PromotionActionResult> {
  const now = deps.now();
  const keyed = { owner: actor, action: 'createPromotion', target: {}, body: request };
  return oncePerKey<PromotionActionResult>(deps.db, keyed, {
    act: async (tx) => {
      if (request.expiresAt && new Date(request.expiresAt).getTime() <= now.getTime()) {
        throw new AppError(ERROR_CODES.VALIDATION_FAILED, {
          errors: [{ source: 'expiresAt', message: STAFF_REQUEST_MESSAGES.promotionExpiry }],
        });
      }
      const [row] = await tx
        .insert(promotionCodes)
        .values({
          code: request.code,
          kind: request.kind,
          value: request.value,
          description: request.description,
          expiresAt: request.expiresAt ? new Date(request.expiresAt) : null,
          maxRedemptions: request.maxRedemptions ?? null,
          requiresCard: request.requiresCard,
          createdBy: actor.email,
          createdAt: now,
        })
        .onConflictDoNothing()
        .returning();
      if (!row) throw new AppError(ERROR_CODES.PROMO_CODE_EXISTS);
      const promotion = promotionView(row);
      const audit = await writeStaffAudit(tx, {
        actor,
        action: 'createPromotion',
        after: promotion,
        requestKey: request.requestKey,
        at: now,
      });
      return { auditId: audit.id, promotion };
    },
  });
}
