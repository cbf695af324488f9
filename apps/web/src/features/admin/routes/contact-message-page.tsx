import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client.ts';
import { Link, useParams } from '../../../lib/router/router.tsx';
import { getContactMessageQueryOptions, useContactMessage } from '../api/get-contact-message.ts';
import { dateTime } from '../components/format.ts';
import { LoadFailed, Loading } from '../../../components/ui/query-state.tsx';
import { ReplyForm } from '../components/reply-form.tsx';
import { Empty, Facts, Section } from '../components/section.tsx';
import { useMayTake } from '../staff-member.tsx';
import { useAdminTitle } from '../use-admin-title.ts';

/** One Contact Us message (/admin/inbox/:messageId) with its replies and a reply form. */
export default function ContactMessagePage() {
  const { messageId = '' } = useParams();
  const mayTake = useMayTake();
  const queryClient = useQueryClient();
  const query = useContactMessage(messageId);
  useAdminTitle(query.data ? `Message from ${query.data.fullName}` : 'Message');

  const back = (
    <p className="admin-breadcrumb">
      <Link to="/admin/inbox">Inbox</Link>
    </p>
  );
  if (query.isPending) {
    return (
      <div className="admin-page">
        {back}
        <h1>Message</h1>
        <Loading text="Loading the message…" />
      </div>
    );
  }
  if (query.isError) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="admin-page">
        {back}
        <h1>Message</h1>
        {missing ? (
          <p className="admin-problem" role="alert">
            There is no such message.
          </p>
        ) : (
          <LoadFailed
            text="The message could not be loaded."
            error={query.error}
            onRetry={() => void query.refetch()}
          />
        )}
      </div>
    );
  }

  const message = query.data;
  return (
    <div className="admin-page">
      {back}
      <h1>Message from {message.fullName}</h1>
      <Section title="Message">
        <Facts
          items={[
            ['From', `${message.fullName} <${message.email}>`],
            ['Phone', `${message.phoneCountry} ${message.phoneNumber}`],
            ['Topic', message.queryType],
            ['AuctionACCESS number', message.auctionAccessNumber],
            ['Received', `${dateTime(message.createdAt)} from ${message.source}`],
            [
              'Status',
              message.status === 'answered' ? `Answered ${dateTime(message.answeredAt)}` : 'New',
            ],
          ]}
        />
        <h3>Comments</h3>
        <p className="admin-message-text">{message.comments}</p>
      </Section>
      <Section title="Replies">
        {message.replies.length === 0 ? (
          <Empty>No reply yet.</Empty>
        ) : (
          <ol className="admin-replies">
            {message.replies.map((reply) => (
              <li key={reply.id}>
                <p className="admin-muted">
                  {reply.staffEmail}, {dateTime(reply.createdAt)}
                </p>
                <p className="admin-message-text">{reply.body}</p>
              </li>
            ))}
          </ol>
        )}
      </Section>
      {mayTake('replyToContact') ? (
        <section className="admin-section card">
          <ReplyForm
            messageId={message.id}
            email={message.email}
            onSent={() =>
              void queryClient.invalidateQueries({
                queryKey: getContactMessageQueryOptions(messageId).queryKey,
              })
            }
          />
        </section>
      ) : null}
    </div>
  );
}
