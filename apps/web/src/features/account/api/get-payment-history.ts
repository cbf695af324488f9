import { useCallback, useEffect, useState } from 'react';
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

export type TPaymentHistoryState =
  { status: 'loading' } | { status: 'ready'; payments: TPayment[] } | { status: 'error' };

/** The year's payments, fetched again when the year changes or `reload` is called. */
export function usePaymentHistory(year: number): {
  state: TPaymentHistoryState;
  reload: () => void;
} {
  const [attempt, setAttempt] = useState(0);
  const key = `${year}:${attempt}`;
  // The answer is kept with the request it belongs to: any other request is still loading.
  const [result, setResult] = useState<{ key: string; state: TPaymentHistoryState } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    getPaymentHistory(year, controller.signal).then(
      (payments) => setResult({ key, state: { status: 'ready', payments } }),
      () => {
        // 000 §8: a failed fetch sets an error flag; the page shows it.
        if (!controller.signal.aborted) setResult({ key, state: { status: 'error' } });
      },
    );
    return () => controller.abort();
  }, [year, key]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { state: result?.key === key ? result.state : { status: 'loading' }, reload };
}
