import type { TFinanceExportQuery } from '@dealerpass/domain/admin/finance-export';

/**
 * GET /api/admin/finance/movements.csv?month= or ?from=&to=: every money movement of the month or
 * range as CSV. A plain download, like the audit's: the staff cookie goes with it.
 */
export function financeExportUrl(query: TFinanceExportQuery): string {
  const params = new URLSearchParams();
  if (query.month) params.set('month', query.month);
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  return `/api/admin/finance/movements.csv?${params.toString()}`;
}
