import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { IAnnualBillingState } from '@dealerpass/domain/schemas/annual-billing';
import { request } from '../../../lib/api-client.ts';

/**
 * GET /api/users/annualBilling → `{ data: state }` (R14, docs/annual-billing-api.md): the offer
 * or why there is none, the open invoice, the annual period paid by check, and every invoice.
 */
export async function getAnnualBilling(signal?: AbortSignal): Promise<IAnnualBillingState> {
  const response = await request<{ data: IAnnualBillingState }>('/api/users/annualBilling', {
    signal,
  });
  return response.data.data;
}

export const getAnnualBillingQueryOptions = () =>
  queryOptions({
    queryKey: ['annual-billing'],
    queryFn: ({ signal }) => getAnnualBilling(signal),
  });

/** The Billing Summary and the annual-billing section read the same answer, fetched once. */
export function useAnnualBilling() {
  return useQuery(getAnnualBillingQueryOptions());
}

/** After an invoice was issued or voided: the offer, the invoice and the summary are asked again. */
export function invalidateAnnualBilling(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: getAnnualBillingQueryOptions().queryKey });
}
