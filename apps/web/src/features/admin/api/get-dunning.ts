import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZStaffDunningSchema } from '@dealerpass/domain/admin/business-views';
import { request } from '../../../lib/api-client.ts';

export type TStaffDunning = z.infer<typeof ZStaffDunningSchema>;

/** GET /api/admin/dunning → `{ data: { accounts, runs } }`: failed renewals and recent runs (R4). */
export async function getDunning(signal?: AbortSignal): Promise<TStaffDunning> {
  const response = await request<{ data: TStaffDunning }>('/api/admin/dunning', { signal });
  return response.data.data;
}

export const getDunningQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'dunning'],
    queryFn: ({ signal }) => getDunning(signal),
  });

export function useDunning() {
  return useQuery(getDunningQueryOptions());
}
