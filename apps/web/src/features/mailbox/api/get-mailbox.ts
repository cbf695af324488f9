import { request } from '../../../lib/api-client.ts';

export interface MailboxMessage {
  id: string;
  to: string;
  replyTo: string | null;
  subject: string;
  text: string;
  /** Where the HTML alternative (issue 27) is shown on its own; null for mail without one. */
  htmlUrl: string | null;
  createdAt: string;
  /** Files sent with the mail (a receipt's PDF), each downloadable from `url`. */
  attachments: { filename: string; contentType: string; url: string }[];
}

/** GET /api/dev/mailbox: the embedded mailbox of a demo or development server (DECISIONS R8). */
export async function getMailbox(signal?: AbortSignal): Promise<MailboxMessage[]> {
  const response = await request<{ data: { messages: MailboxMessage[] } }>('/api/dev/mailbox', {
    signal,
  });
  return response.data.data.messages;
}
