import { CARFAX_API } from '@dealerpass/domain/integrations/carfax';
import { request } from '../../../lib/api-client.ts';

/** POST …/revoke (000 §4 sign-out): the tokens are revoked; the answer is Carfax's logout URL. */
export async function revokeCarfaxTokens(): Promise<{ logoutUrl: string }> {
  const response = await request<{ data: { logoutUrl: string } }>(CARFAX_API.revoke, {
    method: 'POST',
  });
  return response.data.data;
}
