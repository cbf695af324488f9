import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TStaffAccountDetail } from '@dealerpass/domain/admin/console-views';
import { request } from '../../../lib/api-client.ts';

export function accountEndpoint(userId: string): string {
  return `/api/admin/accounts/${encodeURIComponent(userId)}`;
}

/** GET /api/admin/accounts/:userId → `{ data: detail }`: everything staff may see (R7, R12). */
export async function getAccount(
  userId: string,
  signal?: AbortSignal,
): Promise<TStaffAccountDetail> {
  const response = await request<{ data: TStaffAccountDetail }>(accountEndpoint(userId), {
    signal,
  });
  return response.data.data;
}

export const getAccountQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['admin', 'account', userId],
    queryFn: ({ signal }) => getAccount(userId, signal),
  });

export function useAccount(userId: string) {
  return useQuery(getAccountQueryOptions(userId));
}
