import type { ReactNode } from 'react';
import type { TStaffAccountDetail } from '@dealerpass/domain/admin/console-views';
import { TableRegion } from '../../../components/ui/table-region.tsx';
import { useAccountTimeline } from '../api/get-account-timeline.ts';
import { dateTime, yesNo } from './format.ts';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Empty, Section } from './section.tsx';

type TDetail = TStaffAccountDetail;

/** The dealer's sessions: when, where from and how each ended; never an id or a token. */
export function SessionsSection({
  sessions,
  actions,
}: {
  sessions: TDetail['sessions'];
  actions?: ReactNode;
}) {
  const live = sessions.filter((session) => !session.endedAt).length;
  return (
    <Section title="Sessions" actions={actions}>
      <p data-testid="admin-live-sessions">
        {live === 1 ? '1 live session.' : `${live} live sessions.`}
      </p>
      {sessions.length === 0 ? (
        <Empty>No sessions.</Empty>
      ) : (
        <TableRegion label="Sessions">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Last seen</th>
                <th scope="col">Context</th>
                <th scope="col">DealerPass ID</th>
                <th scope="col">Ended</th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((session, index) => (
                <tr key={`${session.createdAt}-${index}`}>
                  <td>{dateTime(session.createdAt)}</td>
                  <td>{dateTime(session.lastSeenAt)}</td>
                  <td>{session.context}</td>
                  <td>{yesNo(session.viaKarId)}</td>
                  <td>
                    {session.endedAt
                      ? `${dateTime(session.endedAt)}${session.endReason ? ` (${session.endReason})` : ''}`
                      : 'Live'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </Section>
  );
}

/** Mail to the account: subject and delivery only (a body may carry a sign-in link). */
export function EmailsSection({
  emails,
  actions,
}: {
  emails: TDetail['emails'];
  actions?: ReactNode;
}) {
  return (
    <Section title="E-mails" actions={actions}>
      {emails.length === 0 ? (
        <Empty>No e-mails sent.</Empty>
      ) : (
        <TableRegion label="E-mails">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Queued</th>
                <th scope="col">Subject</th>
                <th scope="col">To</th>
                <th scope="col">Status</th>
                <th scope="col">Sent</th>
              </tr>
            </thead>
            <tbody>
              {emails.map((mail, index) => (
                <tr key={`${mail.createdAt}-${index}`}>
                  <td>{dateTime(mail.createdAt)}</td>
                  <td className="admin-wrap">{mail.subject}</td>
                  <td>{mail.to}</td>
                  <td>{mail.status}</td>
                  <td>{dateTime(mail.sentAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </Section>
  );
}

const KIND_LABELS: Record<string, string> = {
  status: 'Status',
  payment: 'Payment',
  refund: 'Refund',
  email: 'E-mail',
  signIn: 'Sign-in',
  staff: 'Staff action',
  invoice: 'Invoice',
  check: 'Check',
};

/** Everything that happened to the account, newest first, from its own request. */
export function TimelineSection({ userId, actions }: { userId: string; actions?: ReactNode }) {
  const query = useAccountTimeline(userId);
  return (
    <Section title="Timeline" actions={actions}>
      <QueryState
        query={query}
        loading="Loading the timeline…"
        failed="The timeline could not be loaded."
        empty="Nothing has happened to this account yet."
        isEmpty={(entries) => entries.length === 0}
      >
        {(entries) => (
          <ol className="admin-timeline" data-testid="admin-timeline">
            {entries.map((entry, index) => (
              <li key={`${entry.at}-${index}`}>
                <span className="admin-timeline__when">{dateTime(entry.at)}</span>
                <span className={`admin-tag admin-tag--${entry.kind}`}>
                  {KIND_LABELS[entry.kind] ?? entry.kind}
                </span>
                <span className="admin-timeline__what">{entry.summary}</span>
              </li>
            ))}
          </ol>
        )}
      </QueryState>
    </Section>
  );
}
