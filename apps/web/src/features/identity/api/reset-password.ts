import type { TResetPasswordRequest } from '@dealerpass/domain/schemas/identity';
import { request } from '../../../lib/api-client.ts';

export const RESET_PASSWORD_ENDPOINT = '/api/identity/password/reset';

/** POST /api/identity/password/reset (the forgot-password link) → `{ data: { email } }`. */
export async function resetPassword(body: TResetPasswordRequest): Promise<{ email: string }> {
  const response = await request<{ data: { email: string } }>(RESET_PASSWORD_ENDPOINT, {
    method: 'POST',
    body,
  });
  return response.data.data;
}
