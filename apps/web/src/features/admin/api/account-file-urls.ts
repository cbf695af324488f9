/**
 * GET /api/admin/audit.csv?userId=: the account's audit rows as CSV (every account's without
 * one). A plain link, like a payment's receiptUrl: the staff cookie goes with it and the browser
 * downloads the file.
 */
export function auditCsvUrl(userId?: string): string {
  return userId
    ? `/api/admin/audit.csv?userId=${encodeURIComponent(userId)}`
    : '/api/admin/audit.csv';
}

/** GET /api/admin/accounts/:userId/invoices/:invoiceId/pdf: an invoice as the dealer received it. */
export function invoicePdfUrl(userId: string, invoiceId: string): string {
  return `/api/admin/accounts/${encodeURIComponent(userId)}/invoices/${encodeURIComponent(invoiceId)}/pdf`;
}
