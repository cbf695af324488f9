import { request } from '../../../lib/api-client.ts';

/** GET /api/users/annualBilling/invoices/:invoiceId/pdf: one of the dealer's own invoices (R14). */
export async function downloadInvoice(invoiceId: string): Promise<Blob> {
  const response = await request<Blob>(
    `/api/users/annualBilling/invoices/${encodeURIComponent(invoiceId)}/pdf`,
    { responseType: 'blob' },
  );
  return response.data;
}

/** The file an invoice is saved as: its number, e.g. DP-2026-000017.pdf. */
export function invoiceFileName(number: string): string {
  return `${number}.pdf`;
}
