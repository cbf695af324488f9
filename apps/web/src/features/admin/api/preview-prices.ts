import type { TStaffPriceChangePreview } from '@dealerpass/domain/admin/business-views';
import type { TStaffPreviewPriceRequest } from '@dealerpass/domain/admin/console-requests';
import { request } from '../../../lib/api-client.ts';

/**
 * POST /api/admin/prices/preview `{ effectiveDate, prices }` (admins, R11 amended): what
 * scheduling would do (the accounts e-mailed, one sample notice), changing nothing.
 */
export async function previewPrices(
  body: TStaffPreviewPriceRequest,
): Promise<TStaffPriceChangePreview> {
  const response = await request<{ data: TStaffPriceChangePreview }>('/api/admin/prices/preview', {
    method: 'POST',
    body,
  });
  return response.data.data;
}
