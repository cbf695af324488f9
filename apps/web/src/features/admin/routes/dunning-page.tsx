import { TableRegion } from '../../../components/ui/table-region.tsx';
import { Link } from '../../../lib/router/router.tsx';
import { useDunning } from '../api/get-dunning.ts';
import { businessDate, dateTime, money } from '../components/format.ts';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Empty, Section } from '../components/section.tsx';
import { useAdminTitle } from '../use-admin-title.ts';

/** Dunning (/admin/dunning): accounts whose renewal failed (R4's retries) and the recent runs. */
export default function DunningPage() {
  useAdminTitle('Dunning');
  const query = useDunning();
  return (
    <div className="admin-page">
      <h1>Dunning</h1>
      <QueryState
        query={query}
        loading="Loading the dunning queue…"
        failed="The dunning queue could not be loaded."
      >
        {(data) => (
          <>
            <Section title="Accounts with a failed renewal">
              {data.accounts.length === 0 ? (
                <Empty>No account is waiting for a renewal retry.</Empty>
              ) : (
                <TableRegion label="Accounts with a failed renewal">
                  <table className="admin-table">
                    <thead>
                      <tr>
                        <th scope="col">Account</th>
                        <th scope="col">Dealership</th>
                        <th scope="col">Owed</th>
                        <th scope="col">Failed attempts</th>
                        <th scope="col">Next retry</th>
                        <th scope="col">Bill date</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.accounts.map((account) => (
                        <tr key={account.userId}>
                          <th scope="row">
                            <Link to={`/admin/accounts/${encodeURIComponent(account.userId)}`}>
                              {`${account.firstName} ${account.lastName}`.trim() || account.email}
                            </Link>
                            <span className="admin-muted admin-block">{account.email}</span>
                          </th>
                          <td>{account.dealership}</td>
                          <td className="admin-amount">{money(account.owedCents)}</td>
                          <td>{account.failedAttempts}</td>
                          <td>{dateTime(account.nextRetryAt)}</td>
                          <td>{businessDate(account.nextBillDate)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableRegion>
              )}
            </Section>
            <Section title="Recent billing runs">
              {data.runs.length === 0 ? (
                <Empty>No billing run yet.</Empty>
              ) : (
                <TableRegion label="Recent billing runs">
                  <table className="admin-table">
                    <thead>
                      <tr>
                        <th scope="col">Started</th>
                        <th scope="col">Kind</th>
                        <th scope="col">Status</th>
                        <th scope="col">Charged</th>
                        <th scope="col">Declined</th>
                        <th scope="col">Made inactive</th>
                        <th scope="col">Gateway errors</th>
                        <th scope="col">Finished</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.runs.map((run) => (
                        <tr key={run.id}>
                          <td>{dateTime(run.startedAt)}</td>
                          <td>{run.kind}</td>
                          <td>{run.status}</td>
                          <td>{run.charged}</td>
                          <td>{run.declined}</td>
                          <td>{run.deactivated}</td>
                          <td>{run.errors}</td>
                          <td>{dateTime(run.finishedAt)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableRegion>
              )}
            </Section>
          </>
        )}
      </QueryState>
    </div>
  );
}
