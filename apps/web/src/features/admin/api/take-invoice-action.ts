import type {
  IInvoiceResult,
  TRecordCheckRequest,
  TResendInvoiceRequest,
  TReturnedCheckRequest,
  TStaffAnnualBillingRequest,
} from '@dealerpass/domain/schemas/annual-billing';
import { request } from '../../../lib/api-client.ts';
import { accountEndpoint } from './get-account.ts';

/**
 * POST /api/admin/accounts/:userId/annual-billing `{ requestKey, reason }` → 201
 * `{ data: { invoice } }`: billing staff ask for annual billing by check on the dealer's behalf
 * (R14, docs/annual-billing-api.md).
 */
export async function setUpAnnualBilling(
  userId: string,
  body: TStaffAnnualBillingRequest,
): Promise<IInvoiceResult> {
  const response = await request<{ data: IInvoiceResult }>(
    `${accountEndpoint(userId)}/annual-billing`,
    { method: 'POST', body },
  );
  return response.data.data;
}

/** What staff do to one invoice, by the end of its path, with the body each takes. */
interface IInvoiceActions {
  void: TStaffAnnualBillingRequest;
  resend: TResendInvoiceRequest;
  check: TRecordCheckRequest;
  'check/returned': TReturnedCheckRequest;
}

/**
 * POST /api/admin/accounts/:userId/invoices/:invoiceId/{void,resend,check,check/returned} →
 * `{ data: { invoice } }`. Recording a check answers 409 when its amount is not what the invoice
 * leaves open, with a message that says what it leaves open.
 */
export async function takeInvoiceAction<A extends keyof IInvoiceActions>(
  userId: string,
  invoiceId: string,
  action: A,
  body: IInvoiceActions[A],
): Promise<IInvoiceResult> {
  const response = await request<{ data: IInvoiceResult }>(
    `${accountEndpoint(userId)}/invoices/${encodeURIComponent(invoiceId)}/${action}`,
    { method: 'POST', body },
  );
  return response.data.data;
}
