import type {
  TRetryRenewalResult,
  TStaffActionResult,
} from '@dealerpass/domain/admin/account-actions';
import { request } from '../../../lib/api-client.ts';
import { accountEndpoint } from './get-account.ts';

/** The account actions of decision 026, by the last segment of their path. */
export type TAccountActionPath =
  | 'resend-verification'
  | 'end-sessions'
  | 'block'
  | 'unblock'
  | 'complimentary'
  | 'retry-renewal'
  | 'balance-adjustments';

/**
 * POST /api/admin/accounts/:userId/<action> with `{ requestKey, reason, … }` → `{ data: result }`:
 * the audit row, whether the key had already been acted on, and the account now; a retried
 * renewal adds its outcome (paid, declined or pending, R16).
 */
export async function takeAccountAction(
  userId: string,
  action: TAccountActionPath,
  body: object,
): Promise<TStaffActionResult | TRetryRenewalResult> {
  const response = await request<{ data: TStaffActionResult | TRetryRenewalResult }>(
    `${accountEndpoint(userId)}/${action}`,
    { method: 'POST', body },
  );
  return response.data.data;
}

/** POST /api/admin/accounts/:userId/payments/:paymentId/{refund,chargeback} → `{ data: result }`. */
export async function takePaymentAction(
  userId: string,
  paymentId: string,
  action: 'refund' | 'chargeback',
  body: object,
): Promise<TStaffActionResult> {
  const response = await request<{ data: TStaffActionResult }>(
    `${accountEndpoint(userId)}/payments/${encodeURIComponent(paymentId)}/${action}`,
    { method: 'POST', body },
  );
  return response.data.data;
}
