import { and, asc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { TAuditExportQuery } from '@dealerpass/domain/admin/console-requests';
import type { Database } from '../../../db/client.ts';
import { staffAudit } from '../../../db/schema.ts';
import { csvRecord } from '../../../lib/csv.ts';

/** Rows one export holds at most (R12's audit as CSV): a longer history is exported in windows. */
export const AUDIT_EXPORT_LIMIT = 50_000;

const HEADER = [
  'id',
  'at',
  'staff_email',
  'staff_id',
  'user_id',
  'action',
  'reason',
  'before',
  'after',
  'request_key',
];

export interface AuditExport {
  csv: string;
  rows: number;
  /** More rows matched than one export holds: the oldest ones are in it, the rest are not. */
  truncated: boolean;
}

/**
 * The staff audit as CSV (R12: exportable), oldest first, for one account or everyone, in an
 * optional window [from, to). Built in memory under AUDIT_EXPORT_LIMIT rows (a few megabytes).
 */
export async function exportStaffAudit(
  db: Database,
  query: TAuditExportQuery,
): Promise<AuditExport> {
  const conditions: SQL[] = [];
  if (query.userId) conditions.push(eq(staffAudit.userId, query.userId));
  if (query.from) conditions.push(gte(staffAudit.at, new Date(query.from)));
  if (query.to) conditions.push(lt(staffAudit.at, new Date(query.to)));
  const rows = await db
    .select()
    .from(staffAudit)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(asc(staffAudit.at), asc(staffAudit.id))
    .limit(AUDIT_EXPORT_LIMIT + 1);
  const truncated = rows.length > AUDIT_EXPORT_LIMIT;
  const kept = truncated ? rows.slice(0, AUDIT_EXPORT_LIMIT) : rows;
  const lines = [csvRecord(HEADER)];
  for (const row of kept) {
    lines.push(
      csvRecord([
        row.id,
        row.at.toISOString(),
        row.staffEmail,
        row.staffId,
        row.userId,
        row.action,
        row.reason,
        row.before,
        row.after,
        row.requestKey,
      ]),
    );
  }
  return { csv: lines.join(''), rows: kept.length, truncated };
}
