import type { TForgotPasswordRequest } from '@dealerpass/domain/schemas/identity';
import { request } from '../../../lib/api-client.ts';

export const FORGOT_PASSWORD_ENDPOINT = '/api/identity/password/forgot';

/**
 * POST /api/identity/password/forgot → `{ data: { sent: true } }`, or 404 USERNAME_NOT_FOUND
 * ('Username was not found. Please try again.', 001 §8).
 */
export async function requestPasswordReset(body: TForgotPasswordRequest): Promise<void> {
  await request(FORGOT_PASSWORD_ENDPOINT, { method: 'POST', body });
}
