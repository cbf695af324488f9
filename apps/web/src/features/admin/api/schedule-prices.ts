import type { TStaffSchedulePriceRequest } from '@dealerpass/domain/admin/console-requests';
import { request } from '../../../lib/api-client.ts';

/**
 * POST /api/admin/prices `{ effectiveDate, prices, requestKey }` (admins, R11, R12): the change
 * is scheduled, once confirmed after its preview, and every account billed at it is e-mailed once.
 */
export async function schedulePrices(
  body: TStaffSchedulePriceRequest,
): Promise<{ effectiveDate: string; notified: number }> {
  const response = await request<{ data: { effectiveDate: string; notified: number } }>(
    '/api/admin/prices',
    { method: 'POST', body },
  );
  return response.data.data;
}
