import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type {
  TOverview,
  TOverviewAccounts,
  TOverviewAccountsQuery,
} from '@dealerpass/domain/overview/overview-views';
import { request } from '../../../lib/api-client.ts';

/** GET /api/admin/overview?from&to → `{ data }`: the business's figures (R18, issue 29). */
export async function getOverview(
  period: { from: string; to: string },
  signal?: AbortSignal,
): Promise<TOverview> {
  const query = new URLSearchParams(period).toString();
  const response = await request<{ data: TOverview }>(`/api/admin/overview?${query}`, { signal });
  return response.data.data;
}

export const getOverviewQueryOptions = (period: { from: string; to: string }) =>
  queryOptions({
    queryKey: ['admin', 'overview', period.from, period.to],
    queryFn: ({ signal }) => getOverview(period, signal),
    placeholderData: keepPreviousData,
  });

export function useOverview(period: { from: string; to: string }) {
  return useQuery(getOverviewQueryOptions(period));
}

/** GET /api/admin/overview/accounts → the accounts behind one bar or point. */
export async function getOverviewAccounts(
  query: TOverviewAccountsQuery,
  signal?: AbortSignal,
): Promise<TOverviewAccounts> {
  const params = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ).toString();
  const response = await request<{ data: TOverviewAccounts }>(
    `/api/admin/overview/accounts?${params}`,
    { signal },
  );
  return response.data.data;
}

export function useOverviewAccounts(query: TOverviewAccountsQuery | null) {
  return useQuery({
    queryKey: ['admin', 'overview', 'accounts', query],
    queryFn: ({ signal }) => getOverviewAccounts(query!, signal),
    enabled: query !== null,
  });
}
