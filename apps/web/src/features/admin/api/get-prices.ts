import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZStaffPricesSchema } from '@dealerpass/domain/admin/business-views';
import { request } from '../../../lib/api-client.ts';

export type TStaffPrices = z.infer<typeof ZStaffPricesSchema>;

/** GET /api/admin/prices → `{ data: { prices, scheduled } }` (R11). */
export async function getPrices(signal?: AbortSignal): Promise<TStaffPrices> {
  const response = await request<{ data: TStaffPrices }>('/api/admin/prices', { signal });
  return response.data.data;
}

export const getPricesQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'prices'],
    queryFn: ({ signal }) => getPrices(signal),
  });

export function usePrices() {
  return useQuery(getPricesQueryOptions());
}
