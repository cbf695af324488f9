import { createContext, use, type ReactNode } from 'react';
import {
  mayTakeAction,
  roleAllows,
  type TStaffAction,
  type TStaffRole,
} from '@dealerpass/domain/admin/roles';
import type { IStaffSession } from './api/get-staff-session.ts';

const StaffMemberContext = createContext<IStaffSession | null>(null);

/** The signed-in member, second factor verified, for every console page below the layout. */
export function StaffMemberProvider({
  member,
  children,
}: {
  member: IStaffSession;
  children: ReactNode;
}) {
  return <StaffMemberContext value={member}>{children}</StaffMemberContext>;
}

export function useStaffMember(): IStaffSession {
  const member = use(StaffMemberContext);
  if (!member) throw new Error('useStaffMember needs the admin layout above it');
  return member;
}

/**
 * Whether the member's role may take this action: the domain's table (R12), the same one the
 * server checks, so a button is shown exactly when its request would be allowed.
 */
export function useMayTake(): (action: TStaffAction) => boolean {
  const { role } = useStaffMember();
  return (action) => mayTakeAction(role, action);
}

export function useRoleAllows(required: TStaffRole): boolean {
  return roleAllows(useStaffMember().role, required);
}
