import { request } from '../../../lib/api-client.ts';

export const LOGOUT_ENDPOINT = '/api/auth/logout';

/**
 * POST /api/auth/logout → `{ data: { redirectTo } }`: the provider's end-session URL, or
 * `/authlogout` (docs/decisions/009). The server ends the session and revokes the tokens.
 */
export async function logout(): Promise<{ redirectTo: string }> {
  const response = await request<{ data?: { redirectTo?: unknown } }>(LOGOUT_ENDPOINT, {
    method: 'POST',
  });
  const redirectTo = response.data?.data?.redirectTo;
  return { redirectTo: typeof redirectTo === 'string' && redirectTo ? redirectTo : '/authlogout' };
}
