import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TStaffMember } from '@dealerpass/domain/admin/staff-members';
import { request } from '../../../lib/api-client.ts';

/** GET /api/admin/staff → `{ data: members }` (admins). */
export async function getStaffMembers(signal?: AbortSignal): Promise<TStaffMember[]> {
  const response = await request<{ data: TStaffMember[] }>('/api/admin/staff', { signal });
  return response.data.data;
}

export const getStaffMembersQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'staff'],
    queryFn: ({ signal }) => getStaffMembers(signal),
  });

export function useStaffMembers(options: { enabled?: boolean } = {}) {
  return useQuery({ ...getStaffMembersQueryOptions(), ...options });
}
