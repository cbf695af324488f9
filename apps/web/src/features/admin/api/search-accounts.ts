import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TAccountSearchResult } from '@dealerpass/domain/admin/console-views';
import { request } from '../../../lib/api-client.ts';

/**
 * GET /api/admin/accounts?q= → `{ data: results }`: by e-mail, name, dealership, user id, card
 * last four, payment id (decision 026) or invoice number (R14).
 */
export async function searchAccounts(
  q: string,
  signal?: AbortSignal,
): Promise<TAccountSearchResult[]> {
  const response = await request<{ data: TAccountSearchResult[] }>(
    `/api/admin/accounts?q=${encodeURIComponent(q)}`,
    { signal },
  );
  return response.data.data;
}

export const searchAccountsQueryOptions = (q: string) =>
  queryOptions({
    queryKey: ['admin', 'accounts', 'search', q],
    queryFn: ({ signal }) => searchAccounts(q, signal),
    enabled: q.trim().length >= 2,
  });

export function useAccountSearch(q: string) {
  return useQuery(searchAccountsQueryOptions(q));
}
