import { CARFAX_API, type ICarfaxConnectionStatus } from '@dealerpass/domain/integrations/carfax';
import { ApiError, request } from '../../../lib/api-client.ts';

export type TCarfaxStatus =
  | { kind: 'connected'; connection: ICarfaxConnectionStatus }
  | { kind: 'expired' }
  | { kind: 'missing' };

/** GET …/status (000 §4): 200 connected, 401 expired, 404 missing; anything else throws. */
export async function getCarfaxStatus(signal?: AbortSignal): Promise<TCarfaxStatus> {
  try {
    const response = await request<{ data: ICarfaxConnectionStatus }>(CARFAX_API.status, {
      signal,
    });
    return { kind: 'connected', connection: response.data.data };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { kind: 'expired' };
    if (error instanceof ApiError && error.status === 404) return { kind: 'missing' };
    throw error;
  }
}
