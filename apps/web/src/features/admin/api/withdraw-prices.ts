import type { TStaffWithdrawPriceRequest } from '@dealerpass/domain/admin/console-requests';
import { request } from '../../../lib/api-client.ts';

export interface IWithdrawnPrices {
  effectiveDate: string;
  /** Accounts told of the change and now e-mailed its withdrawal. */
  notified: number;
}

/**
 * POST /api/admin/prices/withdrawal `{ effectiveDate, reason, requestKey }` (admins, R11
 * amended): the change leaves the table and every account told of it is e-mailed.
 */
export async function withdrawPrices(body: TStaffWithdrawPriceRequest): Promise<IWithdrawnPrices> {
  const response = await request<{ data: IWithdrawnPrices }>('/api/admin/prices/withdrawal', {
    method: 'POST',
    body,
  });
  return response.data.data;
}
