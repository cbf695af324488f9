import type {
  IInvoiceResult,
  TAnnualBillingDealerRequest,
} from '@dealerpass/domain/schemas/annual-billing';
import { request } from '../../../lib/api-client.ts';

/**
 * POST /api/users/annualBilling `{ requestKey }` → 201 `{ data: { invoice } }` (R14): the invoice
 * for the next annual period is issued and e-mailed; monthly card billing goes on until it is paid.
 */
export async function requestAnnualBilling(
  body: TAnnualBillingDealerRequest,
): Promise<IInvoiceResult> {
  const response = await request<{ data: IInvoiceResult }>('/api/users/annualBilling', {
    method: 'POST',
    body,
  });
  return response.data.data;
}
