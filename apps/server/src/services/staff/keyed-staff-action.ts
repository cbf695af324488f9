import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { TStaffAction } from '@dealerpass/domain/staff/roles';
import type { Database, Transaction } from '../../db/client.ts';
import { AppError } from '../../errors/app-error.ts';
import { findStaffAction, type StaffAuditRow } from './staff-audit.ts';

/**
 * Runs a staff action once per request key (R12, docs/decisions/026). A key already in the audit
 * answers what its first request did (`replay` of its audit row) and acts no second time; two
 * requests with the same key at once both try, the audit's unique key refuses the second
 * one's row, its transaction rolls back whole, and it answers the first one's result. A key used
 * before for another action is refused: it is not a repeat of this one.
 */
export async function keyedStaffAction<T>(
  db: Database,
  input: {
    action: TStaffAction;
    requestKey: string;
    replay: (row: StaffAuditRow) => T;
    /** The change and its audit row in one transaction (`act`), or a service's own that does both. */
    act?: (tx: Transaction) => Promise<T>;
    run?: () => Promise<T>;
  },
): Promise<T> {
  const answer = (row: StaffAuditRow) => {
    if (row.action !== input.action) throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED);
    return input.replay(row);
  };
  const earlier = await findStaffAction(db, input.requestKey);
  if (earlier) return answer(earlier);
  try {
    if (input.run) return await input.run();
    if (!input.act) throw new Error('a staff action needs act or run');
    return await db.transaction(input.act);
  } catch (error) {
    const first = await findStaffAction(db, input.requestKey);
    if (first) return answer(first);
    throw error;
  }
}
