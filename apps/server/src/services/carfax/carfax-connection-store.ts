import { eq } from 'drizzle-orm';
import type { ICarfaxConnectionStatus } from '@dealerpass/domain/integrations/carfax';
import type { CarfaxTokenSet } from '../../adapters/carfax/carfax-oauth-client.ts';
import type { Database } from '../../db/client.ts';
import { carfaxConnections } from '../../db/schema.ts';
import { open, seal } from '../../lib/secret-box.ts';

export type CarfaxConnectionRow = typeof carfaxConnections.$inferSelect;

export interface CarfaxTokens {
  accessToken: string;
  refreshToken: string | null;
}

/** Each token is sealed with the account and its kind as associated data (R7). */
const aad = (userId: string, kind: 'access' | 'refresh') => `carfax:${kind}:${userId}`;

export async function readCarfaxConnection(
  db: Database,
  userId: string,
): Promise<CarfaxConnectionRow | null> {
  const [row] = await db
    .select()
    .from(carfaxConnections)
    .where(eq(carfaxConnections.userId, userId))
    .limit(1);
  return row ?? null;
}

export function openCarfaxTokens(key: Buffer, row: CarfaxConnectionRow): CarfaxTokens {
  return {
    accessToken: open(key, row.accessTokenEnc, aad(row.userId, 'access')),
    refreshToken: row.refreshTokenEnc
      ? open(key, row.refreshTokenEnc, aad(row.userId, 'refresh'))
      : null,
  };
}

/** Stores a new token set; a refresh that brings no new refresh token keeps the old one (RFC 6749 §6). */
export async function saveCarfaxTokens(
  db: Database,
  key: Buffer,
  input: { userId: string; tokens: CarfaxTokenSet; now: Date; keepRefreshTokenEnc?: string | null },
): Promise<CarfaxConnectionRow> {
  const { userId, tokens, now } = input;
  const values = {
    accessTokenEnc: seal(key, tokens.accessToken, aad(userId, 'access')),
    refreshTokenEnc: tokens.refreshToken
      ? seal(key, tokens.refreshToken, aad(userId, 'refresh'))
      : (input.keepRefreshTokenEnc ?? null),
    scope: tokens.scope,
    accessExpiresAt: new Date(now.getTime() + tokens.expiresIn * 1000),
    updatedAt: now,
  };
  const [row] = await db
    .insert(carfaxConnections)
    .values({ userId, connectedAt: now, ...values })
    .onConflictDoUpdate({ target: carfaxConnections.userId, set: values })
    .returning();
  if (!row) throw new Error('the Carfax connection was not stored');
  return row;
}

export async function deleteCarfaxConnection(
  db: Database,
  userId: string,
): Promise<CarfaxConnectionRow | null> {
  const [row] = await db
    .delete(carfaxConnections)
    .where(eq(carfaxConnections.userId, userId))
    .returning();
  return row ?? null;
}

export function connectionStatus(row: CarfaxConnectionRow): ICarfaxConnectionStatus {
  return {
    status: 'connected',
    accessTokenExpiresAt: row.accessExpiresAt.toISOString(),
    connectedAt: row.connectedAt.toISOString(),
  };
}
