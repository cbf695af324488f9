import type { TStaffSignInRequest } from '@dealerpass/domain/schemas/sign-in';
import { request } from '../../../lib/api-client.ts';

export function staffLoginEndpoint(uid: string): string {
  return `/oidc/interaction/${encodeURIComponent(uid)}/staff-login`;
}

/**
 * POST /oidc/interaction/:uid/staff-login `{ email, password }` → `{ data: { redirectTo } }`: the
 * operator console's sign-in at the embedded provider (decision 026), for the staff client's
 * interactions only (a dealer's is 404, as an expired one).
 */
export async function submitStaffLogin(
  uid: string,
  body: TStaffSignInRequest,
): Promise<{ redirectTo: string }> {
  const response = await request<{ data?: { redirectTo?: unknown } }>(staffLoginEndpoint(uid), {
    method: 'POST',
    body,
  });
  const redirectTo = response.data?.data?.redirectTo;
  if (typeof redirectTo !== 'string' || redirectTo === '') {
    throw new Error('The sign-in answer had no redirect.');
  }
  return { redirectTo };
}
