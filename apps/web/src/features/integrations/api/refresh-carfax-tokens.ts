import { CARFAX_API, type ICarfaxConnectionStatus } from '@dealerpass/domain/integrations/carfax';
import { request } from '../../../lib/api-client.ts';

/** POST …/refresh: new tokens before (or after) the access token expires. */
export async function refreshCarfaxTokens(): Promise<ICarfaxConnectionStatus> {
  const response = await request<{ data: ICarfaxConnectionStatus }>(CARFAX_API.refresh, {
    method: 'POST',
  });
  return response.data.data;
}
