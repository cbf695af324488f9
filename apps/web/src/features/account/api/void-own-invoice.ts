import type {
  IInvoiceResult,
  TVoidOwnInvoiceRequest,
} from '@dealerpass/domain/schemas/annual-billing';
import { request } from '../../../lib/api-client.ts';

/**
 * POST /api/users/annualBilling/invoices/:invoiceId/void `{ requestKey }` → `{ data: { invoice } }`:
 * "Keep paying monthly by card" (R14). The invoice is voided and the dealer e-mailed.
 */
export async function voidOwnInvoice(
  invoiceId: string,
  body: TVoidOwnInvoiceRequest,
): Promise<IInvoiceResult> {
  const response = await request<{ data: IInvoiceResult }>(
    `/api/users/annualBilling/invoices/${encodeURIComponent(invoiceId)}/void`,
    { method: 'POST', body },
  );
  return response.data.data;
}
