import { and, eq, isNull } from 'drizzle-orm';
import type { TStaffActionResult } from '@dealerpass/domain/admin/account-actions';
import type { Database } from '../../../db/client.ts';
import { sessions } from '../../../db/schema.ts';
import { open } from '../../../lib/secret-box.ts';
import type { ProviderTokens } from '../../session/session-store.ts';
import { takeStaffAction, type StaffActionInput } from './take-staff-action.ts';

/**
 * Ends every live session of the account (R12 support): each one's next call gets 403
 * `invalidToken` (R6), as after an expiry. The provider tokens of the ended sessions are handed
 * back for the caller to revoke once this is committed, as a sign-out or a password change does.
 */
export async function endAccountSessions(
  db: Database,
  input: Omit<StaffActionInput, 'action'> & { encryptionKey: Buffer },
): Promise<{ result: TStaffActionResult; endedTokens: ProviderTokens[] }> {
  const endedTokens: ProviderTokens[] = [];
  const { encryptionKey, ...action } = input;
  const result = await takeStaffAction(
    db,
    { ...action, action: 'endSessions' },
    async (tx, user) => {
      const live = and(eq(sessions.userId, user.id), isNull(sessions.endedAt));
      // Read before the update, which clears the tokens: they have done their last job.
      const ended = await tx
        .select({ idHash: sessions.idHash, tokensEnc: sessions.tokensEnc })
        .from(sessions)
        .where(live)
        .for('update');
      if (ended.length > 0) {
        await tx
          .update(sessions)
          .set({ endedAt: input.now, endReason: 'staff', tokensEnc: null })
          .where(live);
      }
      for (const row of ended) {
        if (row.tokensEnc)
          endedTokens.push(
            JSON.parse(open(encryptionKey, row.tokensEnc, row.idHash)) as ProviderTokens,
          );
      }
      return { before: { liveSessions: ended.length }, after: { liveSessions: 0 } };
    },
  );
  return { result, endedTokens };
}
