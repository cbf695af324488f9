import { request } from '../../../lib/api-client.ts';

/** POST /api/admin/logout → `{ data: { redirectTo } }`: the staff session ends on the server. */
export async function signOut(): Promise<{ redirectTo: string }> {
  const response = await request<{ data: { redirectTo: string } }>('/api/admin/logout', {
    method: 'POST',
    body: {},
  });
  return response.data.data;
}
