import type { TStaffSchedulePriceRequest } from '@dealerpass/domain/staff/console-requests';
import {
  schedulePriceChange,
  type PriceChangeDeps,
  type ScheduledPriceChange,
} from '../prices/schedule-price-change.ts';
import { writeStaffAudit, type StaffActor } from '../staff/staff-audit.ts';
import { keyedStaffAction } from '../staff/keyed-staff-action.ts';

export type StaffScheduledPrice = ScheduledPriceChange & { auditId: number };

/**
 * An admin schedules a price change from the console (R11, R12): the command's service, with the
 * staff member's e-mail as who scheduled it and the audit row in its transaction; a repeated
 * request key answers the first scheduling and adds no row nor e-mail.
 */
export async function scheduleStaffPrice(
  deps: PriceChangeDeps,
  actor: StaffActor,
  request: TStaffSchedulePriceRequest,
): Promise<StaffScheduledPrice> {
  const { requestKey, ...change } = request;
  return keyedStaffAction(deps.db, {
    action: 'schedulePrice',
    requestKey,
    replay: (row) => ({ ...(row.after as ScheduledPriceChange), auditId: row.id }),
    run: async () => {
      let auditId = 0;
      const scheduled = await schedulePriceChange(deps, change, actor.email, async (tx, done) => {
        const audit = await writeStaffAudit(tx, {
          actor,
          action: 'schedulePrice',
          after: done,
          requestKey,
          at: deps.now(),
        });
        auditId = audit.id;
      });
      return { ...scheduled, auditId };
    },
  });
}
