import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.ts';

/**
 * GET /api/auth/session → whether this session signed in with a DealerPass ID (000 §4: the
 * reminder banner is for sessions that did not), as the server recorded it at sign-in.
 */
export async function getLoggedInViaKarId(signal?: AbortSignal): Promise<boolean> {
  const response = await request<{ data: { loggedInViaKarId: boolean } }>('/api/auth/session', {
    signal,
  });
  return response.data.data.loggedInViaKarId === true;
}

export const getLoggedInViaKarIdQueryOptions = () =>
  queryOptions({
    queryKey: ['auth-session', 'logged-in-via-karid'],
    queryFn: ({ signal }) => getLoggedInViaKarId(signal),
  });

/** Whether this session signed in with a DealerPass ID; undefined until known or on failure. */
export function useLoggedInViaKarId(enabled: boolean): boolean | undefined {
  return useQuery({ ...getLoggedInViaKarIdQueryOptions(), enabled }).data;
}
