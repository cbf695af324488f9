import { useId } from 'react';
import { TableRegion } from '../../../components/ui/table-region.tsx';
import { Link, useSearchParams } from '../../../lib/router/router.tsx';
import { useContactMessages, type TContactMessageStatus } from '../api/get-contact-messages.ts';
import { dateTime } from '../components/format.ts';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useAdminTitle } from '../use-admin-title.ts';

const FILTERS: { value: TContactMessageStatus | null; label: string }[] = [
  { value: 'new', label: 'New' },
  { value: 'answered', label: 'Answered' },
  { value: null, label: 'All' },
];

const STATUS_TEXT: Record<string, string> = { new: 'New', answered: 'Answered' };

/** Inbox (/admin/inbox): the Contact Us messages, new ones first by default (R12). */
export default function InboxPage() {
  useAdminTitle('Inbox');
  const [params, setParams] = useSearchParams();
  const wanted = params.get('status');
  const status: TContactMessageStatus | null =
    wanted === 'all' ? null : wanted === 'answered' ? 'answered' : 'new';
  const query = useContactMessages(status);
  const legendId = useId();

  return (
    <div className="admin-page">
      <h1>Inbox</h1>
      <fieldset className="admin-filter" aria-labelledby={legendId}>
        <legend id={legendId}>Show</legend>
        {FILTERS.map((filter) => (
          <label key={filter.label} className="admin-filter__option">
            <input
              type="radio"
              name="inbox-status"
              checked={filter.value === status}
              onChange={() => setParams(new URLSearchParams({ status: filter.value ?? 'all' }))}
            />{' '}
            {filter.label}
          </label>
        ))}
      </fieldset>
      <QueryState
        query={query}
        loading="Loading messages…"
        failed="The messages could not be loaded."
        empty={status === 'new' ? 'No new messages. Well done.' : 'No messages.'}
        isEmpty={(rows) => rows.length === 0}
      >
        {(rows) => (
          <TableRegion label="Contact messages">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">From</th>
                  <th scope="col">Topic</th>
                  <th scope="col">Received</th>
                  <th scope="col">Status</th>
                  <th scope="col">Answered</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((message) => (
                  <tr key={message.id}>
                    <th scope="row">
                      <Link to={`/admin/inbox/${encodeURIComponent(message.id)}`}>
                        {message.fullName}
                      </Link>
                      <span className="admin-muted admin-block">{message.email}</span>
                    </th>
                    <td>{message.queryType}</td>
                    <td>{dateTime(message.createdAt)}</td>
                    <td>{STATUS_TEXT[message.status] ?? message.status}</td>
                    <td>{dateTime(message.answeredAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
      </QueryState>
    </div>
  );
}
