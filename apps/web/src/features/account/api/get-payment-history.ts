import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { TPayment } from '@dealerpass/domain/schemas/payment-history';
import { request } from '../../../lib/api-client.ts';

/** GET /api/users/paymentHistory?year= → `{ data: { payments } }` (000 §3, §7). */
export async function getPaymentHistory(year: number, signal?: AbortSignal): Promise<TPayment[]> {
  const response = await request<{ data: { payments: TPayment[] } }>(
    `/api/users/paymentHistory?year=${encodeURIComponent(year)}`,
    { signal },
  );
  return response.data.data.payments;
}

/** A year's payments; leaving the year cancels its request. */
export const getPaymentHistoryQueryOptions = (year: number) =>
  queryOptions({
    queryKey: ['payment-history', year],
    queryFn: ({ signal }) => getPaymentHistory(year, signal),
  });

export type TPaymentHistoryState =
  { status: 'loading' } | { status: 'ready'; payments: TPayment[] } | { status: 'error' };

/** The year's payments, fetched again when the year changes or `reload` is called. */
export function usePaymentHistory(year: number): {
  state: TPaymentHistoryState;
  reload: () => void;
} {
  const queryClient = useQueryClient();
  const query = useQuery(getPaymentHistoryQueryOptions(year));
  // Try again shows the loading state, not the failed one, while it asks again.
  const reload = useCallback(() => {
    void queryClient.resetQueries({ queryKey: getPaymentHistoryQueryOptions(year).queryKey });
  }, [queryClient, year]);
  // 000 §8: a failed fetch sets an error flag; the page shows it.
  const state: TPaymentHistoryState = query.isPending
    ? { status: 'loading' }
    : query.isError
      ? { status: 'error' }
      : { status: 'ready', payments: query.data };
  return { state, reload };
}
