import { queryOptions, useQuery } from '@tanstack/react-query';
import type { IInvoiceQueue } from '@dealerpass/domain/schemas/annual-billing';
import { request } from '../../../lib/api-client.ts';

/**
 * GET /api/admin/invoices?status=open → `{ data: { invoices } }`: the "Invoices due" queue (R14),
 * overdue first, then by due date, as the server orders it.
 */
export async function getInvoicesDue(signal?: AbortSignal): Promise<IInvoiceQueue> {
  const response = await request<{ data: IInvoiceQueue }>('/api/admin/invoices?status=open', {
    signal,
  });
  return response.data.data;
}

export const getInvoicesDueQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'invoices', 'open'],
    queryFn: ({ signal }) => getInvoicesDue(signal),
  });

export function useInvoicesDue() {
  return useQuery(getInvoicesDueQueryOptions());
}
