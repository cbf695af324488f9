import type { TContactReplyRequest } from '@dealerpass/domain/admin/console-requests';
import { request } from '../../../lib/api-client.ts';
import { contactMessageEndpoint } from './get-contact-message.ts';

/** POST /api/admin/contact-messages/:id/reply `{ body, requestKey }`: e-mailed to the sender. */
export async function replyToContactMessage(
  id: string,
  body: TContactReplyRequest,
): Promise<unknown> {
  const response = await request<{ data: unknown }>(`${contactMessageEndpoint(id)}/reply`, {
    method: 'POST',
    body,
  });
  return response.data.data;
}
