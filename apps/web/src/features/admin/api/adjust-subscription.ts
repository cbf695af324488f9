import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import type {
  TAdjustSubscriptionPreview,
  TAdjustSubscriptionRequest,
  TAdjustSubscriptionResult,
} from '@dealerpass/domain/admin/account-actions';
import { request } from '../../../lib/api-client.ts';
import { accountEndpoint } from './get-account.ts';

/**
 * GET /api/admin/accounts/:userId/subscription-change?codes= → the dealer's own preview of that
 * selection (R10), and whether the account is complimentary (issue 28's "Adjust").
 */
export const adjustPreviewQueryOptions = (userId: string, codes: readonly TSubscriptionCode[]) =>
  queryOptions({
    queryKey: ['admin', 'account', userId, 'subscription-change', codes.join(',')],
    queryFn: async ({ signal }) =>
      (
        await request<{ data: TAdjustSubscriptionPreview }>(
          `${accountEndpoint(userId)}/subscription-change?codes=${encodeURIComponent(codes.join(','))}`,
          { signal },
        )
      ).data.data,
    // The last preview stays on screen while the next one loads (no flicker per tick).
    placeholderData: keepPreviousData,
    retry: false,
  });

export function useAdjustPreview(
  userId: string,
  codes: readonly TSubscriptionCode[],
  enabled: boolean,
) {
  return useQuery({ ...adjustPreviewQueryOptions(userId, codes), enabled });
}

/**
 * POST /api/admin/accounts/:userId/subscription-change with the dialog's request key, the codes,
 * the selection the console showed and the reason → what happened (applied, charged, declined,
 * pending).
 */
export async function adjustSubscription(
  userId: string,
  body: TAdjustSubscriptionRequest,
): Promise<TAdjustSubscriptionResult> {
  return (
    await request<{ data: TAdjustSubscriptionResult }>(
      `${accountEndpoint(userId)}/subscription-change`,
      { method: 'POST', body },
    )
  ).data.data;
}
