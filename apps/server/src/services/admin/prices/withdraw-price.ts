import type { TStaffWithdrawPriceRequest } from '@dealerpass/domain/admin/console-requests';
import type { PriceChangeDeps } from '../../prices/schedule-price-change.ts';
import {
  withdrawPriceChange,
  type WithdrawnPriceChange,
} from '../../prices/withdraw-price-change.ts';
import { oncePerKey } from '../../request-keys/once-per-key.ts';
import { writeStaffAudit, type StaffActor } from '../audit/staff-audit.ts';

export type StaffWithdrawnPrice = WithdrawnPriceChange & { auditId: number };

/**
 * An admin withdraws a scheduled price change from the console (R11 amended, R12): the audit row
 * (the rows withdrawn before, the notices e-mailed after, the reason) in the withdrawal's
 * transaction; a repeated request answers the first withdrawal and e-mails nobody again, and its key
 * with another date or reason is 409 (decision 031).
 */
export async function withdrawStaffPrice(
  deps: PriceChangeDeps,
  actor: StaffActor,
  request: TStaffWithdrawPriceRequest,
): Promise<StaffWithdrawnPrice> {
  const { requestKey, reason, effectiveDate } = request;
  const keyed = { owner: actor, action: 'withdrawPrice', target: {}, body: request };
  return oncePerKey<StaffWithdrawnPrice>(deps.db, keyed, {
    // The withdrawal opens its own transaction; the key and the audit row are written in it.
    run: async (record) => {
      let auditId = 0;
      const withdrawn = await withdrawPriceChange(deps, effectiveDate, async (tx, done) => {
        const audit = await writeStaffAudit(tx, {
          actor,
          action: 'withdrawPrice',
          before: { effectiveDate, effectiveFrom: done.effectiveFrom, rows: done.rows },
          after: done,
          reason,
          requestKey,
          at: deps.now(),
        });
        auditId = audit.id;
        await record(tx, { ...done, auditId });
      });
      return { ...withdrawn, auditId };
    },
  });
}
