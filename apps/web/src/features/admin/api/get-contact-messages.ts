import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZContactMessageSummarySchema } from '@dealerpass/domain/admin/business-views';
import type { CONTACT_MESSAGE_STATUSES } from '@dealerpass/domain/admin/console-requests';
import { request } from '../../../lib/api-client.ts';

export type TContactMessageSummary = z.infer<typeof ZContactMessageSummarySchema>;
export type TContactMessageStatus = (typeof CONTACT_MESSAGE_STATUSES)[number];

/** GET /api/admin/contact-messages?status= → `{ data: messages }`, newest first. */
export async function getContactMessages(
  status: TContactMessageStatus | null,
  signal?: AbortSignal,
): Promise<TContactMessageSummary[]> {
  const query = status ? `?status=${encodeURIComponent(status)}` : '';
  const response = await request<{ data: TContactMessageSummary[] }>(
    `/api/admin/contact-messages${query}`,
    { signal },
  );
  return response.data.data;
}

export const getContactMessagesQueryOptions = (status: TContactMessageStatus | null) =>
  queryOptions({
    queryKey: ['admin', 'contact-messages', status ?? 'all'],
    queryFn: ({ signal }) => getContactMessages(status, signal),
  });

export function useContactMessages(status: TContactMessageStatus | null) {
  return useQuery(getContactMessagesQueryOptions(status));
}
