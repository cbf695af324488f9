import type { ISignupOrderSummary } from '@dealerpass/domain/billing/order-summary';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { request } from '../../../lib/api-client.ts';

/**
 * POST /api/signup/order-summary `{ subscriptions, promoCode }` (docs/decisions/032): what the
 * sign-up charges today and the date and amount of its next charge, as the server computes the
 * charge itself (R4, R11), with its texts.
 */
export async function getOrderSummary(
  body: { subscriptions: readonly TSubscriptionCode[]; promoCode: string },
  signal?: AbortSignal,
): Promise<ISignupOrderSummary> {
  const response = await request<{ data: ISignupOrderSummary }>('/api/signup/order-summary', {
    method: 'POST',
    body,
    ...(signal ? { signal } : {}),
  });
  return response.data.data;
}
