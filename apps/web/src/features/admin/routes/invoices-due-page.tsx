import { TableRegion } from '../../../components/ui/table-region.tsx';
import { Link } from '../../../lib/router/router.tsx';
import { useInvoicesDue } from '../api/get-invoices-due.ts';
import { businessDate, money } from '../components/format.ts';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Section } from '../components/section.tsx';
import { useAdminTitle } from '../use-admin-title.ts';

/**
 * Invoices due (/admin/invoices, R14): every open annual invoice, overdue ones first, then by due
 * date (the server's order), each linked to its account where staff record the check.
 */
export default function InvoicesDuePage() {
  useAdminTitle('Invoices due');
  const query = useInvoicesDue();
  return (
    <div className="admin-page">
      <h1>Invoices due</h1>
      <QueryState
        query={query}
        loading="Loading the open invoices…"
        failed="The open invoices could not be loaded."
      >
        {({ invoices }) => {
          const overdue = invoices.filter((invoice) => invoice.overdue).length;
          return (
            <Section title="Open invoices">
              <p role="status" className="admin-count" data-testid="invoices-due-count">
                {invoices.length === 0
                  ? 'No invoice is waiting for a check.'
                  : `${invoices.length === 1 ? '1 open invoice' : `${invoices.length} open invoices`}, ${overdue} overdue.`}
              </p>
              {invoices.length === 0 ? null : (
                <TableRegion label="Open invoices">
                  <table className="admin-table" data-testid="invoices-due">
                    <thead>
                      <tr>
                        <th scope="col">Invoice</th>
                        <th scope="col">Dealership</th>
                        <th scope="col">Amount</th>
                        <th scope="col">Due</th>
                        <th scope="col">Issued</th>
                        <th scope="col">Period</th>
                      </tr>
                    </thead>
                    <tbody>
                      {invoices.map((invoice) => (
                        <tr key={invoice.id}>
                          <th scope="row">
                            <Link
                              to={`/admin/accounts/${encodeURIComponent(invoice.userId)}`}
                              className="admin-mono"
                            >
                              {invoice.number}
                            </Link>
                          </th>
                          <td>{invoice.dealershipName}</td>
                          <td className="admin-amount">{money(invoice.totalCents)}</td>
                          <td>
                            {businessDate(invoice.dueOn)}
                            {invoice.overdue ? (
                              <>
                                {' '}
                                <span className="admin-status admin-status--overdue">Overdue</span>
                              </>
                            ) : null}
                          </td>
                          <td>{businessDate(invoice.issuedOn)}</td>
                          <td>
                            {businessDate(invoice.periodStart)} to {businessDate(invoice.periodEnd)}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableRegion>
              )}
            </Section>
          );
        }}
      </QueryState>
    </div>
  );
}
