import { and, eq, isNull } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { Database } from '../../../db/client.ts';
import { staffSessions, staffUsers } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import { open, seal } from '../../../lib/secret-box.ts';
import { newTotpSecret, otpauthUri, verifyTotp } from '../../../lib/totp.ts';
import { totpAccountKey } from '../../identity/sign-in-failures.ts';
import {
  TOTP_FAILURE_BUDGET,
  takeFromFailureBudget,
  type FailureBudgetStore,
} from '../../limits/failure-budgets.ts';
import { oncePerKey } from '../../request-keys/once-per-key.ts';
import { writeStaffAudit } from '../audit/staff-audit.ts';
import type { StaffSession } from './staff-session-store.ts';

export interface SecondFactorDeps {
  db: Database;
  encryptionKey: Buffer;
  now: () => Date;
  /** Codes are taken from a budget per member (docs/decisions/029; R13: Redis too when set). */
  failures: FailureBudgetStore;
  issuer: string;
}

const sealedFor = (staffId: string) => `staff-totp:${staffId}`;

/** A member's authenticator secret as it is stored: sealed and bound to the member (R7). */
export function sealTotpSecret(encryptionKey: Buffer, staffId: string, secret: string): string {
  return seal(encryptionKey, secret, sealedFor(staffId));
}

/**
 * Offers an authenticator secret to a member who has none (R12: enrolled at first sign-in). The
 * secret waits, sealed, on this session until a code from it is verified; asking again offers a
 * new one.
 */
export async function startEnrolment(
  deps: SecondFactorDeps,
  session: StaffSession,
): Promise<{ secret: string; otpauthUri: string }> {
  if (session.enrolled) throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED);
  const secret = newTotpSecret();
  await deps.db
    .update(staffSessions)
    .set({ pendingTotpSecretEnc: seal(deps.encryptionKey, secret, session.idHash) })
    .where(eq(staffSessions.idHash, session.idHash));
  return {
    secret,
    otpauthUri: otpauthUri({ secret, account: session.email, issuer: deps.issuer }),
  };
}

export type TVerifyOutcome = 'verified' | 'invalid' | 'locked';

/**
 * Verifies a TOTP code for the session: against the member's secret, or while enrolling against
 * the offered one (which then becomes the member's). A code is accepted once (its time step is
 * kept). Each code is first taken from the member's budget (docs/decisions/029), so parallel
 * guesses cannot all be checked: the fifth wrong code within the hour ends the session, and past
 * the budget no code is checked, the right one included, until the hour has passed. The right
 * code within the budget gives it back.
 */
export async function verifySecondFactor(
  deps: SecondFactorDeps,
  session: StaffSession,
  code: string,
): Promise<TVerifyOutcome> {
  const now = deps.now();
  const failureKey = totpAccountKey(session.staffId);
  const attempt = await takeFromFailureBudget(deps.failures, TOTP_FAILURE_BUDGET, failureKey, now);
  if (!attempt.within) {
    await endForFailures(deps.db, session.idHash, now);
    return 'locked';
  }
  const outcome = await deps.db.transaction(async (tx) => {
    const [staff] = await tx
      .select({
        totpSecretEnc: staffUsers.totpSecretEnc,
        totpEnrolledAt: staffUsers.totpEnrolledAt,
        totpLastStep: staffUsers.totpLastStep,
      })
      .from(staffUsers)
      .where(eq(staffUsers.id, session.staffId))
      .for('update');
    const [row] = await tx
      .select({ pending: staffSessions.pendingTotpSecretEnc })
      .from(staffSessions)
      .where(and(eq(staffSessions.idHash, session.idHash), isNull(staffSessions.endedAt)));
    if (!staff || !row) return 'invalid' as const;
    const enrolling = staff.totpEnrolledAt === null;
    const secret = enrolling
      ? row.pending && open(deps.encryptionKey, row.pending, session.idHash)
      : staff.totpSecretEnc &&
        open(deps.encryptionKey, staff.totpSecretEnc, sealedFor(session.staffId));
    if (!secret) return 'invalid' as const;
    const step = verifyTotp(secret, code, now, enrolling ? null : staff.totpLastStep);
    if (step === null) return 'invalid' as const;
    await tx
      .update(staffUsers)
      .set({
        totpLastStep: step,
        updatedAt: now,
        ...(enrolling
          ? {
              totpSecretEnc: sealTotpSecret(deps.encryptionKey, session.staffId, secret),
              totpEnrolledAt: now,
            }
          : {}),
      })
      .where(eq(staffUsers.id, session.staffId));
    await tx
      .update(staffSessions)
      .set({ secondFactorAt: now, pendingTotpSecretEnc: null })
      .where(eq(staffSessions.idHash, session.idHash));
    await writeStaffAudit(tx, {
      actor: session,
      action: enrolling ? 'enrolSecondFactor' : 'signIn',
      at: now,
    });
    return 'verified' as const;
  });
  if (outcome === 'verified') {
    await deps.failures.clear(failureKey);
    return outcome;
  }
  // A wrong code keeps the attempt it took; the budget's last one ends the session.
  if (attempt.last) {
    await endForFailures(deps.db, session.idHash, now);
    return 'locked';
  }
  return outcome;
}

async function endForFailures(db: Database, idHash: string, now: Date): Promise<void> {
  await db
    .update(staffSessions)
    .set({ endedAt: now, endReason: 'expired', tokensEnc: null, pendingTotpSecretEnc: null })
    .where(and(eq(staffSessions.idHash, idHash), isNull(staffSessions.endedAt)));
}

/**
 * An admin resets a member's authenticator (R12): the secret is forgotten and every session of
 * the member ends, so the next sign-in enrols a new one. Once per request key: the key again for
 * another member is 409, and that member keeps their authenticator (decision 031).
 */
export async function resetSecondFactor(
  db: Database,
  input: { actor: StaffSession; staffId: string; reason: string; requestKey: string; now: Date },
): Promise<{ auditId: number }> {
  const keyed = {
    owner: input.actor,
    action: 'resetStaffSecondFactor',
    target: { staffId: input.staffId },
    body: { reason: input.reason, requestKey: input.requestKey },
  };
  return oncePerKey<{ auditId: number }>(db, keyed, {
    act: async (tx) => {
      const [staff] = await tx
        .select({ email: staffUsers.email, enrolledAt: staffUsers.totpEnrolledAt })
        .from(staffUsers)
        .where(eq(staffUsers.id, input.staffId))
        .for('update');
      if (!staff) throw new AppError(ERROR_CODES.NOT_FOUND);
      await tx
        .update(staffUsers)
        .set({
          totpSecretEnc: null,
          totpEnrolledAt: null,
          totpLastStep: null,
          updatedAt: input.now,
        })
        .where(eq(staffUsers.id, input.staffId));
      await tx
        .update(staffSessions)
        .set({
          endedAt: input.now,
          endReason: 'reset',
          tokensEnc: null,
          pendingTotpSecretEnc: null,
        })
        .where(and(eq(staffSessions.staffId, input.staffId), isNull(staffSessions.endedAt)));
      const audit = await writeStaffAudit(tx, {
        actor: input.actor,
        action: 'resetStaffSecondFactor',
        before: {
          staffId: input.staffId,
          staffEmail: staff.email,
          enrolled: staff.enrolledAt !== null,
        },
        after: { staffId: input.staffId, staffEmail: staff.email, enrolled: false },
        reason: input.reason,
        requestKey: input.requestKey,
        at: input.now,
      });
      return { auditId: audit.id };
    },
  });
}
