import type { TCreatePromotionRequest } from '@dealerpass/domain/admin/console-requests';
import { request } from '../../../lib/api-client.ts';

/** POST /api/admin/promotions → `{ data: { auditId, … } }`; 409 PROMO_CODE_EXISTS for a taken code. */
export async function createPromotion(body: TCreatePromotionRequest): Promise<unknown> {
  const response = await request<{ data: unknown }>('/api/admin/promotions', {
    method: 'POST',
    body,
  });
  return response.data.data;
}
