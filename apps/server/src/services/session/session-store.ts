import { createHash, randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import { open, seal } from '../../lib/secret-box.ts';

/** DECISIONS R6: 30 minutes idle, 12 hours absolute. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** The idle timer is written at most once a minute, not on every request. */
const TOUCH_EVERY_MS = 60 * 1000;

export type SessionContext = 'web' | 'app' | 'af' | 'ext';

export interface ProviderTokens {
  idToken?: string | undefined;
  accessToken?: string | undefined;
  refreshToken?: string | undefined;
}

export interface ActiveSession {
  idHash: string;
  userId: string;
  context: SessionContext;
  viaKarId: boolean;
}

export type SessionLookup =
  | { status: 'active'; session: ActiveSession }
  | { status: 'invalid' }
  | { status: 'duplicate'; context: SessionContext };

export function hashSessionId(rawId: string): string {
  return createHash('sha256').update(rawId).digest('base64url');
}

/**
 * Starts a session for a user who just signed in: a fresh 256-bit id (never reused, so a
 * session can't be fixed in advance), the provider's tokens sealed, and every older session of the
 * same user ended as a duplicate (one active session per user, R6). Returns the id for the cookie
 * and the tokens of the sessions it replaced, for the caller to revoke.
 */
export async function createSession(
  db: Database,
  input: {
    userId: string;
    context: SessionContext;
    viaKarId: boolean;
    tokens: ProviderTokens;
    now: Date;
    encryptionKey: Buffer;
  },
): Promise<{ rawId: string; replaced: ProviderTokens[] }> {
  const rawId = randomBytes(32).toString('base64url');
  const idHash = hashSessionId(rawId);
  const replaced = await db.transaction(async (tx) => {
    const active = await tx
      .select({ idHash: sessions.idHash, tokensEnc: sessions.tokensEnc })
      .from(sessions)
      .where(and(eq(sessions.userId, input.userId), isNull(sessions.endedAt)))
      .for('update');
    if (active.length > 0) {
      await tx
        .update(sessions)
        .set({ endedAt: input.now, endReason: 'duplicate', tokensEnc: null })
        .where(and(eq(sessions.userId, input.userId), isNull(sessions.endedAt)));
    }
    await tx.insert(sessions).values({
      idHash,
      userId: input.userId,
      context: input.context,
      viaKarId: input.viaKarId,
      tokensEnc: seal(input.encryptionKey, JSON.stringify(input.tokens), idHash),
      lastSeenAt: input.now,
      absoluteExpiresAt: new Date(input.now.getTime() + SESSION_ABSOLUTE_MS),
    });
    return active.flatMap((row) =>
      row.tokensEnc
        ? [JSON.parse(open(input.encryptionKey, row.tokensEnc, row.idHash)) as ProviderTokens]
        : [],
    );
  });
  return { rawId, replaced };
}

/** Resolves a cookie value to its session, ending it if it has just run out, and keeps it alive. */
export async function resolveSession(
  db: Database,
  rawId: string,
  now: Date,
): Promise<SessionLookup> {
  const idHash = hashSessionId(rawId);
  const [row] = await db.select().from(sessions).where(eq(sessions.idHash, idHash)).limit(1);
  if (!row) return { status: 'invalid' };
  if (row.endedAt) {
    return row.endReason === 'duplicate'
      ? { status: 'duplicate', context: row.context }
      : { status: 'invalid' };
  }
  const idleExpired = now.getTime() - row.lastSeenAt.getTime() > SESSION_IDLE_MS;
  if (idleExpired || now >= row.absoluteExpiresAt) {
    await db
      .update(sessions)
      .set({ endedAt: now, endReason: 'expired' })
      .where(eq(sessions.idHash, idHash));
    return { status: 'invalid' };
  }
  if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, idHash));
  }
  return {
    status: 'active',
    session: { idHash, userId: row.userId, context: row.context, viaKarId: row.viaKarId },
  };
}

/** Ends a session (sign-out) and hands back its provider tokens for revocation. */
export async function endSession(
  db: Database,
  idHash: string,
  now: Date,
  encryptionKey: Buffer,
): Promise<{ context: SessionContext; tokens: ProviderTokens } | null> {
  const [row] = await db
    .update(sessions)
    .set({ endedAt: now, endReason: 'logout' })
    .where(and(eq(sessions.idHash, idHash), isNull(sessions.endedAt)))
    .returning({ context: sessions.context, tokensEnc: sessions.tokensEnc });
  if (!row) return null;
  const tokens = row.tokensEnc
    ? (JSON.parse(open(encryptionKey, row.tokensEnc, idHash)) as ProviderTokens)
    : {};
  // The tokens have done their last job; they are not kept after the session.
  await db.update(sessions).set({ tokensEnc: null }).where(eq(sessions.idHash, idHash));
  return { context: row.context, tokens };
}

/**
 * Ends every active session of the accounts signed in with this DealerPass ID, because its
 * password was reset or set (issue 13.7): whoever held a session with the old password is out.
 * Hands back their provider tokens for the caller to revoke once the change is committed.
 */
export async function endSessionsOfIdentity(
  tx: Database | Transaction,
  input: { identityId: string; now: Date; encryptionKey: Buffer },
): Promise<ProviderTokens[]> {
  const accounts = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.karId, input.identityId));
  if (accounts.length === 0) return [];
  const active = and(
    inArray(
      sessions.userId,
      accounts.map((account) => account.id),
    ),
    isNull(sessions.endedAt),
  );
  // Read before the update: RETURNING would give the cleared column.
  const ended = await tx
    .select({ idHash: sessions.idHash, tokensEnc: sessions.tokensEnc })
    .from(sessions)
    .where(active)
    .for('update');
  if (ended.length === 0) return [];
  await tx
    .update(sessions)
    .set({ endedAt: input.now, endReason: 'password-changed', tokensEnc: null })
    .where(active);
  return ended.flatMap((row) =>
    row.tokensEnc
      ? [JSON.parse(open(input.encryptionKey, row.tokensEnc, row.idHash)) as ProviderTokens]
      : [],
  );
}
