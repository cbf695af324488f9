import type { TConnectKarIdRequest } from '@dealerpass/domain/schemas/identity';
import { request } from '../../../lib/api-client.ts';
import type { ICurrentUser } from '../current-user-types.ts';

export const CONNECT_KARID_ENDPOINT = '/api/users/current/karid';

/**
 * POST /api/users/current/karid with `{ mode: 'create', email, password, confirmPassword }` or
 * `{ mode: 'link', email, password }` → `{ data: user }` with `karId` set (DECISIONS R6).
 */
export async function connectKarId(body: TConnectKarIdRequest): Promise<ICurrentUser> {
  const response = await request<{ data: ICurrentUser }>(CONNECT_KARID_ENDPOINT, {
    method: 'POST',
    body,
  });
  return response.data.data;
}
