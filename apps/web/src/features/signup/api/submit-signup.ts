import type { TSignupRequestInput } from '@dealerpass/domain/schemas/signup-request';
import { request } from '../../../lib/api-client.ts';

export const SIGNUP_ENDPOINT = '/api/v2/signup';

/**
 * POST /api/v2/signup (001 §7), the current flow. The body's `requestKey` is the same for every
 * retry of one submit, so a repeated request never makes a second account or charge
 * (`oncePerKey`, docs/decisions/045).
 */
export async function submitSignup(
  body: TSignupRequestInput,
  requestKey: string,
): Promise<{ email: string }> {
  const response = await request<{ data: { email: string } }>(SIGNUP_ENDPOINT, {
    method: 'POST',
    body: { ...body, requestKey },
  });
  return response.data.data;
}
