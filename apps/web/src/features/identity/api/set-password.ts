import type { TSetPasswordRequest } from '@dealerpass/domain/schemas/identity';
import { request } from '../../../lib/api-client.ts';

export const SET_PASSWORD_ENDPOINT = '/api/identity/password/set';

/** POST /api/identity/password/set (the verification link, DECISIONS R6) → `{ data: { email } }`. */
export async function setPassword(body: TSetPasswordRequest): Promise<{ email: string }> {
  const response = await request<{ data: { email: string } }>(SET_PASSWORD_ENDPOINT, {
    method: 'POST',
    body,
  });
  return response.data.data;
}
