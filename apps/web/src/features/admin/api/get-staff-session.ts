import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TStaffRole } from '@dealerpass/domain/admin/roles';
import { request } from '../../../lib/api-client.ts';

/** The signed-in staff member as the console sees them (decision 026). */
export interface IStaffSession {
  email: string;
  name: string;
  role: TStaffRole;
  /** False until a TOTP code has been verified in this session: nothing else opens before. */
  secondFactor: boolean;
  /** Whether the member has an authenticator: verify when true, enrol when false. */
  enrolled: boolean;
}

export const STAFF_SESSION_ENDPOINT = '/api/admin/session';

/** GET /api/admin/session → `{ data: session }`; 401 without a live staff session. */
export async function getStaffSession(signal?: AbortSignal): Promise<IStaffSession> {
  const response = await request<{ data: IStaffSession }>(STAFF_SESSION_ENDPOINT, { signal });
  return response.data.data;
}

export const getStaffSessionQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'session'],
    queryFn: ({ signal }) => getStaffSession(signal),
  });

export function useStaffSession() {
  return useQuery(getStaffSessionQueryOptions());
}
