import type { TUpdateCurrentUserRequest } from '@dealerpass/domain/schemas/profile';
import { request } from '../../../lib/api-client.ts';
import type { ICurrentUser } from '../current-user-types.ts';

/**
 * PUT /api/users/current?verifyAutoCheckCredentials=false (000 §7): the profile save sends the
 * merged profile; the server writes only the alternate e-mail and phone and answers the user.
 */
export async function updateProfile(
  body: TUpdateCurrentUserRequest & Record<string, unknown>,
): Promise<ICurrentUser> {
  const response = await request<{ data: ICurrentUser }>(
    '/api/users/current?verifyAutoCheckCredentials=false',
    { method: 'PUT', body },
  );
  return response.data.data;
}
