import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import type {
  ISubscriptionChangePreview,
  ISubscriptionChangeResult,
  ISubscriptionSelectionState,
  TSubscriptionChangeRequest,
} from '@dealerpass/domain/schemas/subscription-change';
import { request } from '../../../lib/api-client.ts';
import { invalidatePaymentWrites } from './get-payment-history.ts';

/** GET /api/users/subscriptions/pendingRemovals: the selection in force and its pending removals (R10). */
export const getSelectionStateQueryOptions = () =>
  queryOptions({
    queryKey: ['subscription-selection'],
    queryFn: async ({ signal }) =>
      (
        await request<{ data: ISubscriptionSelectionState }>(
          '/api/users/subscriptions/pendingRemovals',
          { signal },
        )
      ).data.data,
  });

export function useSelectionState() {
  return useQuery(getSelectionStateQueryOptions());
}

/** GET /api/users/subscriptions/change?codes=: the server's preview of a selection (R10). */
export const previewChangeQueryOptions = (codes: readonly TSubscriptionCode[]) =>
  queryOptions({
    queryKey: ['subscription-change-preview', codes.join(',')],
    queryFn: async ({ signal }) =>
      (
        await request<{ data: ISubscriptionChangePreview }>(
          `/api/users/subscriptions/change?codes=${encodeURIComponent(codes.join(','))}`,
          { signal },
        )
      ).data.data,
    // The last preview stays on screen while the next one loads (no flicker per tick).
    placeholderData: keepPreviousData,
    retry: false,
  });

export function useChangePreview(codes: readonly TSubscriptionCode[], enabled: boolean) {
  return useQuery({ ...previewChangeQueryOptions(codes), enabled });
}

/**
 * POST /api/users/subscriptions/change with the page's idempotency key for this selection and the
 * selection the page was based on (409 CHANGE_SELECTION_STALE when another window changed it).
 */
export async function changeSubscription(
  body: TSubscriptionChangeRequest,
): Promise<ISubscriptionChangeResult> {
  return (
    await request<{ data: ISubscriptionChangeResult }>('/api/users/subscriptions/change', {
      method: 'POST',
      body,
    })
  ).data.data;
}

/** POST /api/users/subscriptions/pendingRemovals/undo: the code keeps running (R10). */
export async function undoRemoval(code: TSubscriptionCode): Promise<ISubscriptionChangePreview> {
  return (
    await request<{ data: ISubscriptionChangePreview }>(
      '/api/users/subscriptions/pendingRemovals/undo',
      { method: 'POST', body: { code } },
    )
  ).data.data;
}

/**
 * The change as a mutation: once it is answered the selection state is asked again, and so is
 * Payment History (an addition's prorated charge is a payment, shown without a reload).
 */
export function useChangeSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeSubscription,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: getSelectionStateQueryOptions().queryKey });
      await invalidatePaymentWrites(queryClient);
    },
  });
}

/** Undo as a mutation: the pending removals are asked again once it is answered. */
export function useUndoRemoval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: undoRemoval,
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: getSelectionStateQueryOptions().queryKey }),
  });
}
