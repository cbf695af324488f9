import type { TStaffSchedulePriceRequest } from '@dealerpass/domain/admin/console-requests';
import {
  schedulePriceChange,
  type PriceChangeDeps,
  type ScheduledPriceChange,
} from '../../prices/schedule-price-change.ts';
import { writeStaffAudit, type StaffActor } from '../audit/staff-audit.ts';
import { oncePerKey } from '../../request-keys/once-per-key.ts';

export type StaffScheduledPrice = ScheduledPriceChange & { auditId: number };

/**
 * An admin schedules a price change from the console (R11, R12): the command's service, with the
 * staff member's e-mail as who scheduled it and the audit row in its transaction; a repeated
 * request answers the first scheduling and adds no row nor e-mail, and its key with other prices
 * or another date is 409 (decision 031).
 */
export async function scheduleStaffPrice(
  deps: PriceChangeDeps,
  actor: StaffActor,
  request: TStaffSchedulePriceRequest,
): Promise<StaffScheduledPrice> {
  const { requestKey, ...change } = request;
  const keyed = { owner: actor, action: 'schedulePrice', target: {}, body: request };
  return oncePerKey<StaffScheduledPrice>(deps.db, keyed, {
    // The price change opens its own transaction; the key and the audit row are written in it.
    run: async (record) => {
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
        await record(tx, { ...done, auditId });
      });
      return { ...scheduled, auditId };
    },
  });
}
