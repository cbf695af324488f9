import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TTimelineEntry } from '@dealerpass/domain/admin/console-views';
import { request } from '../../../lib/api-client.ts';
import { accountEndpoint } from './get-account.ts';

/** GET /api/admin/accounts/:userId/timeline → `{ data: entries }`, newest first. */
export async function getAccountTimeline(
  userId: string,
  signal?: AbortSignal,
): Promise<TTimelineEntry[]> {
  const response = await request<{ data: TTimelineEntry[] }>(
    `${accountEndpoint(userId)}/timeline`,
    { signal },
  );
  return response.data.data;
}

export const getAccountTimelineQueryOptions = (userId: string) =>
  queryOptions({
    // Under the account's key: an action that reloads the account reloads its timeline too.
    queryKey: ['admin', 'account', userId, 'timeline'],
    queryFn: ({ signal }) => getAccountTimeline(userId, signal),
  });

export function useAccountTimeline(userId: string) {
  return useQuery(getAccountTimelineQueryOptions(userId));
}
