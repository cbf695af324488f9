import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
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

/** Every year's payment history: the prefix of each year's query key. */
const PAYMENT_HISTORY_KEY = ['payment-history'] as const;

/** A year's payments; leaving the year cancels its request. */
export const getPaymentHistoryQueryOptions = (year: number) =>
  queryOptions({
    queryKey: [...PAYMENT_HISTORY_KEY, year],
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

/**
 * After a write that may have made a payment (a reactivation, a new card that retried a failed
 * renewal, a subscription change's prorated charge): every year's history is fetched again, so
 * the new payment shows without a reload.
 */
export function invalidatePaymentWrites(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: PAYMENT_HISTORY_KEY });
}
