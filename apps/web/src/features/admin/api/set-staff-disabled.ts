import type { TSetStaffDisabledRequest } from '@dealerpass/domain/admin/staff-members';
import { request } from '../../../lib/api-client.ts';

/**
 * POST /api/admin/staff/:staffId/disabled `{ disabled, reason, requestKey }`: a disabled member's
 * sessions end at once and they cannot sign in; enabled, they can again (R12).
 */
export async function setStaffDisabled(
  staffId: string,
  body: TSetStaffDisabledRequest,
): Promise<{ auditId: number }> {
  const response = await request<{ data: { auditId: number } }>(
    `/api/admin/staff/${encodeURIComponent(staffId)}/disabled`,
    { method: 'POST', body },
  );
  return response.data.data;
}
