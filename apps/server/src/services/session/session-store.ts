import { createHash, randomBytes } from 'node:crypto';
import { and, eq, getTableColumns, inArray, isNull } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database, Transaction } from '../../db/client.ts';
import { runPrepared, type PreparedStatement } from '../../db/prepared.ts';
import { sessions, users } from '../../db/schema.ts';
import { open, seal } from '../../lib/secret-box.ts';
import { balanceCentsOfUser } from '../billing/account-balance.ts';
import { BILLING_CYCLE_SQL, type UserRow } from '../users/serialize-user.ts';

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
  | { status: 'active'; session: ActiveSession; account: UserRow }
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

/**
 * The session and its account's row (with its balance) in one statement, one round trip
 * (docs/decisions/021): every signed-in request starts here. The account's columns are listed
 * from the schema, named as drizzle names them (`UserRow`), and the balance is the one definition
 * of it (account-balance.ts), rendered once. The row travels as one JSON value: the drivers decode
 * a row of fifty columns field by field, which costs more than the query (PGlite most of all),
 * so it comes as text and is parsed here once. Dates stay text, as drizzle gives them;
 * timestamps are turned back into Dates.
 */
const ACCOUNT_COLUMNS = Object.entries(getTableColumns(users));
const TIMESTAMP_KEYS = [
  'sessionLastSeenAt',
  'sessionExpiresAt',
  'sessionEndedAt',
  ...ACCOUNT_COLUMNS.filter(([, column]) => column.columnType === 'PgTimestamp').map(
    ([key]) => key,
  ),
];
const SESSION_WITH_ACCOUNT: PreparedStatement = (() => {
  const balance = new PgDialect().sqlToQuery(balanceCentsOfUser());
  if (balance.params.length > 0) throw new Error('the balance expression takes no parameters');
  const accountColumns = ACCOUNT_COLUMNS.map(
    ([key, column]) => `"users"."${column.name}" as "${key}"`,
  );
  return {
    name: 'dp_session_with_account',
    // A read of rows alone: the clock's rules (idle, absolute expiry) are applied below, on every
    // request, to the row as read (docs/decisions/027).
    reusable: true,
    text: `select row_to_json(found)::text as "row" from (
        select s.context as "sessionContext", s.via_kar_id as "sessionViaKarId",
          s.last_seen_at as "sessionLastSeenAt", s.absolute_expires_at as "sessionExpiresAt",
          s.ended_at as "sessionEndedAt", s.end_reason as "sessionEndReason",
          ${accountColumns.join(', ')}, ${balance.sql} as "balanceCents",
          ${BILLING_CYCLE_SQL} as "billingCycle"
        from sessions s join users on users.id = s.user_id
        where s.id_hash = $1) found`,
  };
})();

interface SessionWithAccount extends UserRow {
  sessionContext: SessionContext;
  sessionViaKarId: boolean;
  sessionLastSeenAt: Date;
  sessionExpiresAt: Date;
  sessionEndedAt: Date | null;
  sessionEndReason: (typeof sessions.$inferSelect)['endReason'];
}

/**
 * Resolves a cookie value to its session and the account's row, ending the session if it has
 * just run out, and keeps it alive.
 */
export async function resolveSession(
  db: Database,
  rawId: string,
  now: Date,
): Promise<SessionLookup> {
  const idHash = hashSessionId(rawId);
  const [found] = await runPrepared<{ row: string }>(db, SESSION_WITH_ACCOUNT, [idHash]);
  if (!found) return { status: 'invalid' };
  const fields = JSON.parse(found.row) as Record<string, unknown>;
  for (const key of TIMESTAMP_KEYS) {
    const value = fields[key];
    if (typeof value === 'string') fields[key] = new Date(value);
  }
  const row = fields as unknown as SessionWithAccount;
  const {
    sessionContext: context,
    sessionViaKarId: viaKarId,
    sessionLastSeenAt: lastSeenAt,
    sessionExpiresAt: absoluteExpiresAt,
    sessionEndedAt: endedAt,
    sessionEndReason: endReason,
    ...account
  } = row;
  if (endedAt) {
    return endReason === 'duplicate' ? { status: 'duplicate', context } : { status: 'invalid' };
  }
  const idleExpired = now.getTime() - lastSeenAt.getTime() > SESSION_IDLE_MS;
  if (idleExpired || now >= absoluteExpiresAt) {
    await db
      .update(sessions)
      .set({ endedAt: now, endReason: 'expired' })
      .where(eq(sessions.idHash, idHash));
    return { status: 'invalid' };
  }
  if (now.getTime() - lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, idHash));
  }
  return {
    status: 'active',
    session: { idHash, userId: account.id, context, viaKarId },
    account,
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
