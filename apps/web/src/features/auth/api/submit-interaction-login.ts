import type { TSignInRequest } from '@dealerpass/domain/schemas/sign-in';
import { request } from '../../../lib/api-client.ts';

export function interactionLoginEndpoint(uid: string): string {
  return `/oidc/interaction/${encodeURIComponent(uid)}/login`;
}

/**
 * POST /oidc/interaction/:uid/login with `{ method: 'email', email, password }` or
 * `{ method: 'legacy', username, password }` → `{ data: { redirectTo } }`: where the browser goes
 * next (back into the provider, which finishes the authorization). 400/401/429 carry the reason.
 */
export async function submitInteractionLogin(
  uid: string,
  body: TSignInRequest,
): Promise<{ redirectTo: string }> {
  const response = await request<{ data?: { redirectTo?: unknown } }>(
    interactionLoginEndpoint(uid),
    { method: 'POST', body },
  );
  const redirectTo = response.data?.data?.redirectTo;
  if (typeof redirectTo !== 'string' || redirectTo === '') {
    throw new Error('The sign-in answer had no redirect.');
  }
  return { redirectTo };
}
