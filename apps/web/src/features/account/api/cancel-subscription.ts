import type { TCancelSubscriptionRequest } from '@dealerpass/domain/schemas/cancellation';
import { request } from '../../../lib/api-client.ts';
import type { ICurrentUser } from '../current-user-types.ts';

/** PATCH /api/users/cancel (000 §7): `{ cancellationReasonOptions: [reason], userProvidedCancelReason }`. */
export async function cancelSubscription(body: TCancelSubscriptionRequest): Promise<ICurrentUser> {
  const response = await request<{ data: ICurrentUser }>('/api/users/cancel', {
    method: 'PATCH',
    body,
  });
  return response.data.data;
}
