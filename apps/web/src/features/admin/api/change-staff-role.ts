import type { TChangeStaffRoleRequest } from '@dealerpass/domain/admin/staff-members';
import { request } from '../../../lib/api-client.ts';

/** POST /api/admin/staff/:staffId/role `{ role, reason, requestKey }` (R12: admins manage staff). */
export async function changeStaffRole(
  staffId: string,
  body: TChangeStaffRoleRequest,
): Promise<{ auditId: number }> {
  const response = await request<{ data: { auditId: number } }>(
    `/api/admin/staff/${encodeURIComponent(staffId)}/role`,
    { method: 'POST', body },
  );
  return response.data.data;
}
