import type { TTotpCodeRequest } from '@dealerpass/domain/admin/totp';
import { request } from '../../../lib/api-client.ts';
import type { IStaffSession } from './get-staff-session.ts';

/**
 * POST /api/admin/session/verify `{ code }` → `{ data: session }` with the second factor done.
 * A wrong code is 400 (or 401 once five wrong codes have ended the session, decision 026).
 */
export async function verifySecondFactor(body: TTotpCodeRequest): Promise<IStaffSession> {
  const response = await request<{ data: IStaffSession }>('/api/admin/session/verify', {
    method: 'POST',
    body,
  });
  return response.data.data;
}
