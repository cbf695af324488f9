import { queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.ts';
import type { ICurrentUser } from '../current-user-types.ts';
import { CURRENT_USER_ENDPOINT } from './current-user-endpoint.ts';

/**
 * GET /api/users/current → `{ data: user }` (000 §3 minus secrets, docs/decisions/009). 401 without
 * a session; 403 with a session-failure body when the session ended.
 */
export async function getCurrentUser(signal?: AbortSignal): Promise<ICurrentUser> {
  const response = await request<{ data: ICurrentUser }>(CURRENT_USER_ENDPOINT, { signal });
  return response.data.data;
}

export const getCurrentUserQueryOptions = () =>
  queryOptions({
    queryKey: ['current-user'],
    queryFn: ({ signal }) => getCurrentUser(signal),
  });
