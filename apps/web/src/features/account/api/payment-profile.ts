import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TPaymentProfileRequest } from '@dealerpass/domain/schemas/billing-form';
import { request } from '../../../lib/api-client.ts';
import type { ICurrentUser } from '../current-user-types.ts';
import { invalidatePaymentWrites } from './get-payment-history.ts';

/** What the billing form sends: the gateway token and card summary, never the card (R5). */
export type TPaymentProfileBody = Partial<TPaymentProfileRequest> & { sameAddresses?: boolean };

/** PUT /api/users/paymentProfile (000 §7): a new card and billing address. */
export async function updatePaymentProfile(
  body: TPaymentProfileBody & { requestKey: string },
): Promise<ICurrentUser> {
  const response = await request<{ data: ICurrentUser }>('/api/users/paymentProfile', {
    method: 'PUT',
    body,
  });
  return response.data.data;
}

/**
 * PUT /api/users/reactivate (000 §7, R4): the same payload for an inactive account; none during
 * pending cancel. Always its intent's request key (docs/decisions/038).
 */
export async function reactivateAccount(
  body: TPaymentProfileBody & { requestKey: string },
): Promise<ICurrentUser> {
  const response = await request<{ data: ICurrentUser }>('/api/users/reactivate', {
    method: 'PUT',
    body,
  });
  return response.data.data;
}

/** DELETE /api/users/paymentProfile (000 §7): removes the card on file. */
export async function removePaymentProfile(): Promise<ICurrentUser> {
  const response = await request<{ data: ICurrentUser }>('/api/users/paymentProfile', {
    method: 'DELETE',
  });
  return response.data.data;
}

type TKeyedBody = TPaymentProfileBody & { requestKey: string };

/**
 * The billing form's write as a mutation: a reactivation when the account is inactive (R4), a
 * new card otherwise. Either may take a payment (the reactivation's charge, a failed renewal
 * retried on the new card), so Payment History is asked again once it succeeds.
 */
export function useSavePaymentProfile(action: 'reactivate' | 'update') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TKeyedBody) =>
      action === 'reactivate' ? reactivateAccount(body) : updatePaymentProfile(body),
    onSuccess: () => invalidatePaymentWrites(queryClient),
  });
}
