import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { ERROR_CODES, errorMessage, type TErrorCode } from '@dealerpass/domain/messages';
import type { Database, Transaction } from '../../db/client.ts';
import { identities, identityTokens } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';

export type TIdentityTokenPurpose = 'set-password' | 'reset-password' | 'sign-in';

/** The verification link's lifetime is the caller's choice; a reset link lives an hour. */
export const RESET_PASSWORD_TTL_MINUTES = 60;

/** Only a digest is stored, so a copy of the table opens no account. */
export function hashIdentityToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * A new single-use link token for an identity: 32 random bytes, base64url, returned once. Any
 * earlier unused token of the same purpose is withdrawn, so only the most recent link works
 * (001 §8: 'Please use the most recent link').
 */
export async function issueIdentityToken(
  tx: Database | Transaction,
  input: {
    identityId: string;
    purpose: TIdentityTokenPurpose;
    now: Date;
    ttlMinutes: number;
  },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const tokenHash = hashIdentityToken(token);
  await tx
    .delete(identityTokens)
    .where(
      and(
        eq(identityTokens.identityId, input.identityId),
        eq(identityTokens.purpose, input.purpose),
        isNull(identityTokens.usedAt),
        ne(identityTokens.tokenHash, tokenHash),
      ),
    );
  await tx.insert(identityTokens).values({
    tokenHash,
    identityId: input.identityId,
    purpose: input.purpose,
    expiresAt: new Date(input.now.getTime() + input.ttlMinutes * 60_000),
    createdAt: input.now,
  });
  return token;
}

/**
 * Spends a link token inside the caller's transaction. Unknown, already used or withdrawn →
 * RESET_INVALID; past its expiry → TEMPORARY_PASSWORD_EXPIRED (001 §8). If the transaction rolls
 * back, the token stays unspent.
 */
export async function consumeIdentityToken(
  tx: Transaction,
  input: { token: string; purpose: TIdentityTokenPurpose; now: Date },
): Promise<{ identityId: string; email: string }> {
  const tokenHash = hashIdentityToken(input.token);
  const [row] = await tx
    .select({
      identityId: identityTokens.identityId,
      email: identities.email,
      expiresAt: identityTokens.expiresAt,
      usedAt: identityTokens.usedAt,
    })
    .from(identityTokens)
    .innerJoin(identities, eq(identities.id, identityTokens.identityId))
    .where(and(eq(identityTokens.tokenHash, tokenHash), eq(identityTokens.purpose, input.purpose)))
    .limit(1)
    .for('update', { of: identityTokens });
  if (!row || row.usedAt) throw tokenError(ERROR_CODES.RESET_INVALID);
  if (row.expiresAt.getTime() <= input.now.getTime()) {
    throw tokenError(ERROR_CODES.TEMPORARY_PASSWORD_EXPIRED);
  }
  const spent = await tx
    .update(identityTokens)
    .set({ usedAt: input.now })
    .where(and(eq(identityTokens.tokenHash, tokenHash), isNull(identityTokens.usedAt)))
    .returning({ tokenHash: identityTokens.tokenHash });
  if (spent.length === 0) throw tokenError(ERROR_CODES.RESET_INVALID);
  return { identityId: row.identityId, email: row.email };
}

function tokenError(code: TErrorCode): AppError {
  return new AppError(code, { errors: [{ source: 'token', message: errorMessage(code) }] });
}
