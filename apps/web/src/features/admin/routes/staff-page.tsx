import { useQueryClient } from '@tanstack/react-query';
import { TableRegion } from '../../../components/ui/table-region.tsx';
import { getStaffMembersQueryOptions, useStaffMembers } from '../api/get-staff-members.ts';
import { resetStaffSecondFactor } from '../api/reset-staff-second-factor.ts';
import { ActionButton } from '../components/action-dialog.tsx';
import { useActionOutcome } from '../components/action-outcome.tsx';
import { dateTime, yesNo } from '../components/format.ts';
import { QueryState } from '../components/query-state.tsx';
import { Section } from '../components/section.tsx';
import { StaffMemberForm } from '../components/staff-member-form.tsx';
import { useMayTake } from '../staff-member.tsx';
import { useAdminTitle } from '../use-admin-title.ts';

const ROLE_LABELS = { support: 'Support', billing: 'Billing', admin: 'Admin' } as const;

/** Staff (/admin/staff, admins): the members, a new member, and a reset of an authenticator. */
export default function StaffPage() {
  useAdminTitle('Staff');
  const mayTake = useMayTake();
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
                        {member.enrolled && mayTake('resetStaffSecondFactor') ? (
                          <ActionButton
                            spec={{
                              label: 'Reset authenticator',
                              title: `Reset the authenticator of ${member.name}`,
                              description: (
                                <p>
                                  {member.name}'s sessions end, and they set up an authenticator
                                  again at their next sign-in.
                                </p>
                              ),
                              confirmLabel: 'Reset',
                              danger: true,
                              done: `${member.name} will set up an authenticator again.`,
                            }}
                            run={({ requestKey, reason }) =>
                              resetStaffSecondFactor(member.id, {
                                requestKey,
                                reason: reason ?? '',
                              })
                            }
                            onDone={(done) => {
                              outcome.report(done);
                              reload();
                            }}
                          />
                        ) : (
                          '—'
                        )}
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
