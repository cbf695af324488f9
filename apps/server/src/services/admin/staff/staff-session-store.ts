import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { TStaffRole } from '@dealerpass/domain/admin/roles';
import type { Database, Transaction } from '../../../db/client.ts';
import { staffSessions, staffUsers } from '../../../db/schema.ts';
import { open, seal } from '../../../lib/secret-box.ts';
import type { ProviderTokens } from '../../session/session-store.ts';

/** DECISIONS R12: 15 minutes idle, 8 hours absolute. */
export const STAFF_SESSION_IDLE_MS = 15 * 60 * 1000;
export const STAFF_SESSION_ABSOLUTE_MS = 8 * 60 * 60 * 1000;
const TOUCH_EVERY_MS = 60 * 1000;

export interface StaffSession {
  idHash: string;
  staffId: string;
  email: string;
  name: string;
  role: TStaffRole;
  /** The second factor was verified in this session: until then it opens nothing but enrolment. */
  secondFactor: boolean;
  /** The staff member has an authenticator enrolled (otherwise the session enrols one). */
  enrolled: boolean;
}

export type StaffSessionLookup =
  { status: 'active'; session: StaffSession } | { status: 'invalid' };

export function hashStaffSessionId(rawId: string): string {
  // A different prefix from the dealers' hash: a dealer cookie's value never names a staff session.
  return createHash('sha256').update(`staff:${rawId}`).digest('base64url');
}

/**
 * Starts a staff session after the identity provider signed the member in: a fresh 256-bit id,
 * the provider's tokens sealed, no second factor yet.
 */
export async function createStaffSession(
  db: Database | Transaction,
  input: { staffId: string; tokens: ProviderTokens; now: Date; encryptionKey: Buffer },
): Promise<string> {
  const rawId = randomBytes(32).toString('base64url');
  const idHash = hashStaffSessionId(rawId);
  await db.insert(staffSessions).values({
    idHash,
    staffId: input.staffId,
    tokensEnc: seal(input.encryptionKey, JSON.stringify(input.tokens), idHash),
    lastSeenAt: input.now,
    absoluteExpiresAt: new Date(input.now.getTime() + STAFF_SESSION_ABSOLUTE_MS),
  });
  return rawId;
}

/** Resolves a staff cookie to its session and member; ends it when it has run out. */
export async function resolveStaffSession(
  db: Database,
  rawId: string,
  now: Date,
): Promise<StaffSessionLookup> {
  const idHash = hashStaffSessionId(rawId);
  const [row] = await db
    .select({
      staffId: staffSessions.staffId,
      secondFactorAt: staffSessions.secondFactorAt,
      lastSeenAt: staffSessions.lastSeenAt,
      absoluteExpiresAt: staffSessions.absoluteExpiresAt,
      endedAt: staffSessions.endedAt,
      email: staffUsers.email,
      name: staffUsers.name,
      role: staffUsers.role,
      enrolledAt: staffUsers.totpEnrolledAt,
      disabledAt: staffUsers.disabledAt,
    })
    .from(staffSessions)
    .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.staffId))
    .where(eq(staffSessions.idHash, idHash))
    .limit(1);
  if (!row || row.endedAt) return { status: 'invalid' };
  const idle = now.getTime() - row.lastSeenAt.getTime() > STAFF_SESSION_IDLE_MS;
  if (row.disabledAt || idle || now >= row.absoluteExpiresAt) {
    await db
      .update(staffSessions)
      .set({ endedAt: now, endReason: row.disabledAt ? 'disabled' : 'expired', tokensEnc: null })
      .where(eq(staffSessions.idHash, idHash));
    return { status: 'invalid' };
  }
  if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    await db.update(staffSessions).set({ lastSeenAt: now }).where(eq(staffSessions.idHash, idHash));
  }
  return {
    status: 'active',
    session: {
      idHash,
      staffId: row.staffId,
      email: row.email,
      name: row.name,
      role: row.role,
      secondFactor: row.secondFactorAt !== null,
      enrolled: row.enrolledAt !== null,
    },
  };
}

/** Ends a staff session (sign-out) and hands back its provider tokens for revocation. */
export async function endStaffSession(
  db: Database,
  idHash: string,
  now: Date,
  encryptionKey: Buffer,
): Promise<ProviderTokens | null> {
  const [row] = await db
    .select({ tokensEnc: staffSessions.tokensEnc })
    .from(staffSessions)
    .where(and(eq(staffSessions.idHash, idHash), isNull(staffSessions.endedAt)));
  if (!row) return null;
  await db
    .update(staffSessions)
    .set({ endedAt: now, endReason: 'logout', tokensEnc: null, pendingTotpSecretEnc: null })
    .where(eq(staffSessions.idHash, idHash));
  return row.tokensEnc
    ? (JSON.parse(open(encryptionKey, row.tokensEnc, idHash)) as ProviderTokens)
    : {};
}
