import { request } from '../../../lib/api-client.ts';

/**
 * GET /api/users/paymentHistory/receipts.zip?year= (DECISIONS R9): the server builds the year's
 * zip from the receipts it stores; the page saves it as '{year}-payments-history.zip'.
 */
export async function downloadYearReceipts(year: number): Promise<Blob> {
  const response = await request<Blob>(
    `/api/users/paymentHistory/receipts.zip?year=${encodeURIComponent(year)}`,
    { responseType: 'blob' },
  );
  return response.data;
}
