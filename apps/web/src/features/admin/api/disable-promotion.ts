import type { TDisablePromotionRequest } from '@dealerpass/domain/admin/console-requests';
import { request } from '../../../lib/api-client.ts';

/** POST /api/admin/promotions/:code/disable `{ reason, requestKey }`: refused from then on. */
export async function disablePromotion(
  code: string,
  body: TDisablePromotionRequest,
): Promise<unknown> {
  const response = await request<{ data: unknown }>(
    `/api/admin/promotions/${encodeURIComponent(code)}/disable`,
    { method: 'POST', body },
  );
  return response.data.data;
}
