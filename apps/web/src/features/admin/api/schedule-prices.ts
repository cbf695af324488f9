import type { TStaffSchedulePriceRequest } from '@dealerpass/domain/staff/console-requests';
import { request } from '../../../lib/api-client.ts';

/**
 * POST /api/admin/prices `{ effectiveDate, prices, requestKey }` (admins, R11, R12): the change
 * is scheduled and every account whose monthly total moves is e-mailed once.
 */
export async function schedulePrices(body: TStaffSchedulePriceRequest): Promise<unknown> {
  const response = await request<{ data: unknown }>('/api/admin/prices', { method: 'POST', body });
  return response.data.data;
}
