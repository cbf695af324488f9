import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZContactMessageSchema } from '@dealerpass/domain/admin/business-views';
import { request } from '../../../lib/api-client.ts';

export type TContactMessage = z.infer<typeof ZContactMessageSchema>;

export function contactMessageEndpoint(id: string): string {
  return `/api/admin/contact-messages/${encodeURIComponent(id)}`;
}

/** GET /api/admin/contact-messages/:id → `{ data: message }` with its replies. */
export async function getContactMessage(
  id: string,
  signal?: AbortSignal,
): Promise<TContactMessage> {
  const response = await request<{ data: TContactMessage }>(contactMessageEndpoint(id), { signal });
  return response.data.data;
}

export const getContactMessageQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'contact-message', id],
    queryFn: ({ signal }) => getContactMessage(id, signal),
  });

export function useContactMessage(id: string) {
  return useQuery(getContactMessageQueryOptions(id));
}
