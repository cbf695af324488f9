import { and, asc, eq, isNull } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { Transaction } from '../../../db/client.ts';
import { staffUsers } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';

export type StaffMemberRow = typeof staffUsers.$inferSelect;

/**
 * For a change of a member's role or access (R12): the enabled admins, then the member, locked in
 * one order (by id), so two admins demoting or disabling each other at once are taken one after
 * the other and the last admin who can sign in is never lost. An unknown member is 404.
 */
export async function lockStaffMembers(
  tx: Transaction,
  staffId: string,
): Promise<{ member: StaffMemberRow; enabledAdmins: StaffMemberRow[] }> {
  const enabledAdmins = await tx
    .select()
    .from(staffUsers)
    .where(and(eq(staffUsers.role, 'admin'), isNull(staffUsers.disabledAt)))
    .orderBy(asc(staffUsers.id))
    .for('update');
  const [member] = await tx
    .select()
    .from(staffUsers)
    .where(eq(staffUsers.id, staffId))
    .for('update');
  if (!member) throw new AppError(ERROR_CODES.NOT_FOUND);
  return { member, enabledAdmins };
}

/** Whether the change leaves no enabled admin: the member was the last one and stops being one. */
export function leavesNoAdmin(member: StaffMemberRow, enabledAdmins: StaffMemberRow[]): boolean {
  return enabledAdmins.length === 1 && enabledAdmins[0]!.id === member.id;
}
