import { useQueryClient } from '@tanstack/react-query';
import { STAFF_ROLES, type TStaffRole } from '@dealerpass/domain/admin/roles';
import type { TStaffMember } from '@dealerpass/domain/admin/staff-members';
import { TableRegion } from '../../../components/ui/table-region.tsx';
import { getStaffMembersQueryOptions, useStaffMembers } from '../api/get-staff-members.ts';
import { changeStaffRole } from '../api/change-staff-role.ts';
import { resetStaffSecondFactor } from '../api/reset-staff-second-factor.ts';
import { setStaffDisabled } from '../api/set-staff-disabled.ts';
import { ActionButton, type IActionOutcome } from '../components/action-dialog.tsx';
import { useActionOutcome } from '../components/action-outcome.tsx';
import { dateTime, yesNo } from '../components/format.ts';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Section } from '../components/section.tsx';
import { StaffMemberForm } from '../components/staff-member-form.tsx';
import { useMayTake, useStaffMember } from '../staff-member.tsx';
import { useAdminTitle } from '../use-admin-title.ts';

const ROLE_LABELS = { support: 'Support', billing: 'Billing', admin: 'Admin' } as const;
const ROLE_OPTIONS = STAFF_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

/** Staff (/admin/staff, admins): the members, a new member, and a reset of an authenticator. */
export default function StaffPage() {
  useAdminTitle('Staff');
  const mayTake = useMayTake();
  const me = useStaffMember();
  const queryClient = useQueryClient();
  const query = useStaffMembers({ enabled: mayTake('createStaff') });
  const outcome = useActionOutcome();
  const reload = () =>
    void queryClient.invalidateQueries({ queryKey: getStaffMembersQueryOptions().queryKey });

  if (!mayTake('createStaff')) {
    return (
      <div className="admin-page">
        <h1>Staff</h1>
        <p className="admin-problem" role="alert">
          Only admins manage staff members.
        </p>
      </div>
    );
  }

  return (
    <div className="admin-page">
      <h1>Staff</h1>
      {outcome.message}
      <Section title="Members">
        <QueryState
          query={query}
          loading="Loading staff members…"
          failed="The staff members could not be loaded."
          empty="No staff members."
          isEmpty={(rows) => rows.length === 0}
        >
          {(rows) => (
            <TableRegion label="Staff members">
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">E-mail</th>
                    <th scope="col">Role</th>
                    <th scope="col">Authenticator</th>
                    <th scope="col">Disabled</th>
                    <th scope="col">Added</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((member) => (
                    <tr key={member.id}>
                      <th scope="row">{member.name}</th>
                      <td>{member.email}</td>
                      <td>{ROLE_LABELS[member.role]}</td>
                      <td>{member.enrolled ? 'Enrolled' : 'Not yet'}</td>
                      <td>{yesNo(member.disabled)}</td>
                      <td>{dateTime(member.createdAt)}</td>
                      <td>
                        <MemberActions
                          member={member}
                          self={member.email.toLowerCase() === me.email.toLowerCase()}
                          onDone={(done) => {
                            outcome.report(done);
                            reload();
                          }}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          )}
        </QueryState>
      </Section>
      <section className="admin-section card">
        <StaffMemberForm onCreated={reload} />
      </section>
    </div>
  );
}

/**
 * What an admin may do to a member (R12): reset the authenticator, change the role, disable or
 * enable. The server refuses what would lock the console out (the admin themself, the last
 * admin), and the dialog says why.
 */
function MemberActions({
  member,
  self,
  onDone,
}: {
  member: TStaffMember;
  self: boolean;
  onDone: (outcome: IActionOutcome) => void;
}) {
  const mayTake = useMayTake();
  return (
    <div className="admin-row-actions">
      {member.enrolled && mayTake('resetStaffSecondFactor') ? (
        <ActionButton
          spec={{
            label: 'Reset authenticator',
            title: `Reset the authenticator of ${member.name}`,
            description: (
              <p>
                {member.name}'s sessions end, and they set up an authenticator again at their next
                sign-in.
              </p>
            ),
            confirmLabel: 'Reset',
            danger: true,
            done: `${member.name} will set up an authenticator again.`,
          }}
          run={({ requestKey, reason }) =>
            resetStaffSecondFactor(member.id, { requestKey, reason: reason ?? '' })
          }
          onDone={onDone}
        />
      ) : null}
      {mayTake('changeStaffRole') ? (
        <ActionButton
          spec={{
            label: 'Change role',
            title: `Change the role of ${member.name}`,
            description: (
              <p>
                {member.name} is {ROLE_LABELS[member.role].toLowerCase()} now. Their open sessions
                take the new role at once.
              </p>
            ),
            confirmLabel: 'Change role',
            choice: { label: 'New role', options: ROLE_OPTIONS },
            done: `${member.name}'s role was changed.`,
          }}
          run={({ requestKey, reason, choice }) =>
            changeStaffRole(member.id, {
              requestKey,
              reason: reason ?? '',
              role: choice as TStaffRole,
            })
          }
          onDone={onDone}
        />
      ) : null}
      {member.disabled && mayTake('enableStaff') ? (
        <ActionButton
          spec={{
            label: 'Enable',
            title: `Enable ${member.name}`,
            description: <p>{member.name} can sign in to the console again.</p>,
            confirmLabel: 'Enable',
            done: `${member.name} can sign in again.`,
          }}
          run={({ requestKey, reason }) =>
            setStaffDisabled(member.id, { requestKey, reason: reason ?? '', disabled: false })
          }
          onDone={onDone}
        />
      ) : null}
      {!member.disabled && !self && mayTake('disableStaff') ? (
        <ActionButton
          spec={{
            label: 'Disable',
            title: `Disable ${member.name}`,
            description: (
              <p>
                {member.name}'s sessions end at once, and they cannot sign in until enabled again.
              </p>
            ),
            confirmLabel: 'Disable',
            danger: true,
            done: `${member.name} was disabled and signed out.`,
          }}
          run={({ requestKey, reason }) =>
            setStaffDisabled(member.id, { requestKey, reason: reason ?? '', disabled: true })
          }
          onDone={onDone}
        />
      ) : null}
    </div>
  );
}
