import type {
  TBalanceAdjustmentRequest,
  TStaffActionResult,
} from '@dealerpass/domain/admin/account-actions';
import type { Database } from '../../../db/client.ts';
import { accountEvents } from '../../../db/schema.ts';
import { addBalanceEntries } from '../../billing/account-balance.ts';
import { staffEventDetails, takeStaffAction, type StaffActionInput } from './take-staff-action.ts';

/**
 * A credit or a charge on the balance with a reason (R12 billing), as one balance entry
 * (decision 018): a credit is a `credit` entry that lowers what is owed, a charge a `fee` entry
 * that raises it (`charge` entries are a billing period's own). Its source `staff:<requestKey>`
 * is unique like the audit's key, so the entry exists once whatever is repeated. The next
 * reactivation charge collects what is owed, or uses the credit (R4).
 */
export async function adjustBalance(
  db: Database,
  input: Omit<StaffActionInput, 'action' | 'reason'> &
    Pick<TBalanceAdjustmentRequest, 'kind' | 'amountCents' | 'reason'>,
): Promise<TStaffActionResult> {
  const { kind, amountCents, ...action } = input;
  return takeStaffAction(db, { ...action, action: 'balanceAdjustment' }, async (tx, user) => {
    const cents = kind === 'credit' ? -amountCents : amountCents;
    await addBalanceEntries(
      tx,
      [
        {
          userId: user.id,
          kind: kind === 'credit' ? 'credit' : 'fee',
          amountCents: cents,
          source: `staff:${input.requestKey}`,
        },
      ],
      input.now,
    );
    await tx.insert(accountEvents).values({
      userId: user.id,
      event: kind === 'credit' ? 'balance credit' : 'balance charge',
      actor: 'staff',
      at: input.now,
      details: { ...staffEventDetails(input.actor), amountCents: cents, reason: input.reason },
    });
    return { after: { adjustmentKind: kind, adjustmentCents: cents } };
  });
}
