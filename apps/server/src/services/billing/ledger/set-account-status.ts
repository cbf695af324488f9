import { STATUS_DESCRIPTIONS, type TAccountStatus } from '@dealerpass/domain/account/status';
import { eq } from 'drizzle-orm';
import type { Transaction } from '../../../db/client.ts';
import { accountEvents, users } from '../../../db/schema.ts';

/** Every status change goes through here, with its audit record (issue 5). */
export async function setStatus(
  tx: Transaction,
  userId: string,
  from: string,
  to: TAccountStatus,
  event: string,
  actor: string,
  now: Date,
): Promise<void> {
  await tx.update(users).set({ accountStatus: to, updatedAt: now }).where(eq(users.id, userId));
  await tx.insert(accountEvents).values({
    userId,
    event,
    fromStatus: from,
    toStatus: to,
    actor,
    at: now,
    details: { description: STATUS_DESCRIPTIONS[to] },
  });
}
