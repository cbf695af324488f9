import { request } from '../../../lib/api-client.ts';

/** GET /api/users/userIdTaken/{email} (001 §7): whether the address already has an account. */
export async function isUserIdTaken(email: string): Promise<boolean> {
  const response = await request<{ data: boolean }>(
    `/api/users/userIdTaken/${encodeURIComponent(email.trim())}`,
  );
  return response.data.data;
}
