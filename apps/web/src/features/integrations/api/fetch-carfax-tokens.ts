import { CARFAX_API, type ICarfaxConnectionStatus } from '@dealerpass/domain/integrations/carfax';
import { request } from '../../../lib/api-client.ts';

/** GET …/tokens/{code}/{encoded login callback URL}?state= (000 §7): the server keeps the tokens. */
export async function fetchCarfaxTokens(input: {
  code: string;
  loginCallbackUrl: string;
  state: string;
}): Promise<ICarfaxConnectionStatus> {
  const path = `${CARFAX_API.tokens}/${encodeURIComponent(input.code)}/${encodeURIComponent(
    input.loginCallbackUrl,
  )}?state=${encodeURIComponent(input.state)}`;
  const response = await request<{ data: ICarfaxConnectionStatus }>(path);
  return response.data.data;
}
