import type { TCreateStaffMemberRequest } from '@dealerpass/domain/admin/staff-members';
import { request } from '../../../lib/api-client.ts';

/** POST /api/admin/staff → 201 `{ data: { auditId, staffId } }` (admins, R12). */
export async function createStaffMember(
  body: TCreateStaffMemberRequest,
): Promise<{ auditId: number; staffId: string }> {
  const response = await request<{ data: { auditId: number; staffId: string } }>(
    '/api/admin/staff',
    { method: 'POST', body },
  );
  return response.data.data;
}
