import { CARFAX_API } from '@dealerpass/domain/integrations/carfax';
import { request } from '../../../lib/api-client.ts';

/** POST …/signin: the server keeps the PKCE verifier for this state and answers where to go. */
export async function startCarfaxSignIn(state: string): Promise<string> {
  const response = await request<{ data: { authorizationUrl: string } }>(CARFAX_API.signIn, {
    method: 'POST',
    body: { state },
  });
  return response.data.data.authorizationUrl;
}
