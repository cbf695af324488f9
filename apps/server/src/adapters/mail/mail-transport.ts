/** A message ready to leave the building. */
export interface OutgoingMail {
  from: string;
  to: string;
  replyTo?: string | undefined;
  subject: string;
  text: string;
  /** The HTML alternative of `text` (multipart/alternative; with attachments, inside multipart/mixed). */
  html?: string | undefined;
  /** `Auto-Submitted: auto-generated` (RFC 3834): no person wrote it, so no robot answers it. */
  automatic?: boolean | undefined;
  attachments?: readonly MailAttachment[] | undefined;
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/**
 * The port every mail goes through (docs/decisions/004-embedded-defaults.md). `smtp` delivers;
 * `mailbox` is the embedded default: the outbox row itself is the delivered mail, shown at /dev/mailbox.
 */
export interface MailTransport {
  readonly kind: 'smtp' | 'mailbox';
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}

export function createMailboxTransport(): MailTransport {
  return {
    kind: 'mailbox',
    send: async () => {
      throw new Error('the embedded mailbox keeps mail in the outbox; nothing is sent');
    },
    close: async () => {},
  };
}
