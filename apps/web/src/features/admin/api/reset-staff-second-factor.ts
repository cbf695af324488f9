import type { TResetSecondFactorRequest } from '@dealerpass/domain/admin/staff-members';
import { request } from '../../../lib/api-client.ts';

/**
 * POST /api/admin/staff/:staffId/reset-second-factor `{ reason, requestKey }`: the member enrols
 * again at the next sign-in, and their sessions end (decision 026).
 */
export async function resetStaffSecondFactor(
  staffId: string,
  body: TResetSecondFactorRequest,
): Promise<{ auditId: number }> {
  const response = await request<{ data: { auditId: number } }>(
    `/api/admin/staff/${encodeURIComponent(staffId)}/reset-second-factor`,
    { method: 'POST', body },
  );
  return response.data.data;
}
