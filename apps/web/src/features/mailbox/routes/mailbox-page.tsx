import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { getMailbox, type MailboxMessage } from '../api/get-mailbox.ts';

type State =
  | { status: 'loading' }
  | { status: 'unavailable' }
  | { status: 'error' }
  | { status: 'ready'; messages: MailboxMessage[] };

const URL_PATTERN = /(https?:\/\/[^\s<>"]+)/g;

/** Plain text with its web links made clickable; nothing is interpreted as HTML. */
function LinkedText({ text }: { text: string }) {
  const parts = text.split(URL_PATTERN);
  return (
    <pre className="mailbox__text">
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part}>
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </pre>
  );
}

/** The development mailbox: every e-mail the server would have sent, newest first. */
export default function MailboxPage() {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    document.title = 'Development mailbox · DealerPass';
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    getMailbox(controller.signal)
      .then((messages) => setState({ status: 'ready', messages }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState({
          status: error instanceof ApiError && error.status === 404 ? 'unavailable' : 'error',
        });
      });
    return () => controller.abort();
  }, [reloads]);

  const refresh = () => {
    setState({ status: 'loading' });
    setReloads((n) => n + 1);
  };

  return (
    <div className="page">
      <h1>Development mailbox</h1>
      <p className="lead">
        This server keeps e-mail here instead of sending it, because no SMTP server is configured.
      </p>
      {/* R8: the mailbox is open to everyone who reaches this demo or development server. */}
      <p className="notice" role="note">
        <strong>Every visitor sees every mail here</strong>, password links included. This page
        exists only on demo and development servers, never in production.
      </p>
      <p>
        <Button variant="secondary" onClick={refresh}>
          Refresh
        </Button>
      </p>
      {state.status === 'loading' ? <p role="status">Loading messages…</p> : null}
      {state.status === 'unavailable' ? (
        <p role="alert">The mailbox is not available on this server.</p>
      ) : null}
      {state.status === 'error' ? (
        <p role="alert">The mailbox could not be loaded. Please try again.</p>
      ) : null}
      {state.status === 'ready' && state.messages.length === 0 ? <p>No mail yet.</p> : null}
      {state.status === 'ready' && state.messages.length > 0 ? (
        <ol className="mailbox" aria-label="Messages, newest first">
          {state.messages.map((message) => (
            <li key={message.id} className="mailbox__item card">
              <details>
                <summary>
                  <span className="mailbox__subject">{message.subject}</span>
                  <span className="mailbox__meta">
                    To {message.to} · {new Date(message.createdAt).toLocaleString()}
                  </span>
                </summary>
                {message.replyTo ? (
                  <p className="mailbox__meta">Reply to {message.replyTo}</p>
                ) : null}
                {message.htmlUrl ? (
                  // The HTML part opens on its own, served with a policy of its own (inline
                  // styles, no script, a sandbox): this page's policy would refuse its styles.
                  <p>
                    <a
                      href={message.htmlUrl}
                      target="_blank"
                      rel="noopener"
                      aria-label={`Open the HTML part of: ${message.subject}`}
                    >
                      Open the HTML part
                    </a>
                  </p>
                ) : null}
                <h2 className="mailbox__part">Plain text</h2>
                <LinkedText text={message.text} />
                {message.attachments.length > 0 ? (
                  <ul className="mailbox__attachments" aria-label="Attachments">
                    {message.attachments.map((attachment) => (
                      <li key={attachment.url}>
                        <a href={attachment.url} download={attachment.filename}>
                          {attachment.filename}
                        </a>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </details>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
