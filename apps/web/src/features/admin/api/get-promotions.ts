import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TStaffPromotion } from '@dealerpass/domain/admin/business-views';
import { request } from '../../../lib/api-client.ts';

/** GET /api/admin/promotions → `{ data: promotions }` with their recent redemptions. */
export async function getPromotions(signal?: AbortSignal): Promise<TStaffPromotion[]> {
  const response = await request<{ data: TStaffPromotion[] }>('/api/admin/promotions', { signal });
  return response.data.data;
}

export const getPromotionsQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'promotions'],
    queryFn: ({ signal }) => getPromotions(signal),
  });

export function usePromotions() {
  return useQuery(getPromotionsQueryOptions());
}
