import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  carfaxSandboxClients,
  carfaxSandboxCodes,
  carfaxSandboxTokens,
} from '../../db/sandbox-schema.ts';
import { safeEqual } from '../../lib/keys.ts';
import {
  CARFAX_SANDBOX_REFRESH_TTL_SECONDS,
  CARFAX_SANDBOX_USERS,
  type ICarfaxSandboxUser,
} from './test-users.ts';

/**
 * The Carfax sandbox's authorization server state (docs/decisions/015): registered clients, codes
 * and tokens in the database (as SHA-256 only), so every server instance answers alike.
 */
export const CARFAX_SANDBOX_MOUNT = '/carfax-sandbox';
export const CARFAX_SANDBOX_PATHS = {
  authorize: `${CARFAX_SANDBOX_MOUNT}/oauth2/authorize`,
  token: `${CARFAX_SANDBOX_MOUNT}/oauth2/token`,
  revoke: `${CARFAX_SANDBOX_MOUNT}/oauth2/revoke`,
  logout: `${CARFAX_SANDBOX_MOUNT}/oauth2/logout`,
  stylesheet: `${CARFAX_SANDBOX_MOUNT}/sandbox.css`,
} as const;
export const CARFAX_SANDBOX_CLIENT_ID = 'dealerpass-sandbox';
export const CARFAX_SANDBOX_SCOPE = 'offline_access';
const CODE_TTL_MS = 60_000;
/** Expired codes and tokens are kept this long (a late replay is still recognised), then dropped. */
const KEEP_EXPIRED_MS = 24 * 3600_000;

export type SandboxClient = typeof carfaxSandboxClients.$inferSelect;

/** An OAuth 2.0 error answer (RFC 6749 §5.2), with the Carfax code where one applies. */
export interface OAuthFailure {
  status: number;
  error: string;
  description: string;
  code?: string;
}

export interface IssuedTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

function randomToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export async function registerSandboxClient(
  db: Database,
  client: {
    clientId: string;
    secret: string;
    redirectUris: string[];
    postLogoutRedirectUris: string[];
  },
): Promise<void> {
  const values = {
    clientId: client.clientId,
    secretHash: sha256(client.secret),
    redirectUris: client.redirectUris,
    postLogoutRedirectUris: client.postLogoutRedirectUris,
  };
  await db
    .insert(carfaxSandboxClients)
    .values(values)
    .onConflictDoUpdate({
      target: carfaxSandboxClients.clientId,
      set: { ...values, updatedAt: new Date() },
    });
}

export async function findSandboxClient(
  db: Database,
  clientId: string,
): Promise<SandboxClient | null> {
  const [row] = await db
    .select()
    .from(carfaxSandboxClients)
    .where(eq(carfaxSandboxClients.clientId, clientId))
    .limit(1);
  return row ?? null;
}

/** client_secret_basic or client_secret_post (RFC 6749 §2.3.1). */
export async function authenticateSandboxClient(
  db: Database,
  clientId: string | undefined,
  secret: string | undefined,
): Promise<SandboxClient | null> {
  if (!clientId || !secret) return null;
  const client = await findSandboxClient(db, clientId);
  return client && safeEqual(client.secretHash, sha256(secret)) ? client : null;
}

/** The test user with these credentials, compared without an early exit on the first miss. */
export function findSandboxUser(email: string, password: string): ICarfaxSandboxUser | null {
  let found: ICarfaxSandboxUser | null = null;
  for (const user of CARFAX_SANDBOX_USERS) {
    const emailOk = safeEqual(sha256(user.email), sha256(email.trim().toLowerCase()));
    const passwordOk = safeEqual(sha256(user.password), sha256(password));
    if (emailOk && passwordOk) found = user;
  }
  return found;
}

export function sandboxUserById(id: string): ICarfaxSandboxUser | null {
  return CARFAX_SANDBOX_USERS.find((user) => user.id === id) ?? null;
}

export async function issueCode(
  db: Database,
  input: {
    clientId: string;
    subject: string;
    redirectUri: string;
    codeChallenge: string;
    scope: string;
    now: Date;
  },
): Promise<string> {
  const code = randomToken('cfx_code_');
  // Housekeeping at a quiet moment: the sandbox has no background job of its own.
  const stale = new Date(input.now.getTime() - KEEP_EXPIRED_MS);
  await db.delete(carfaxSandboxCodes).where(lt(carfaxSandboxCodes.expiresAt, stale));
  await db.delete(carfaxSandboxTokens).where(lt(carfaxSandboxTokens.expiresAt, stale));
  await db.insert(carfaxSandboxCodes).values({
    codeHash: sha256(code),
    clientId: input.clientId,
    subject: input.subject,
    redirectUri: input.redirectUri,
    codeChallenge: input.codeChallenge,
    scope: input.scope,
    grantId: randomUUID(),
    expiresAt: new Date(input.now.getTime() + CODE_TTL_MS),
  });
  return code;
}

const invalidGrant = (description: string): OAuthFailure => ({
  status: 400,
  error: 'invalid_grant',
  description,
});

async function issueTokens(
  db: Database,
  input: { clientId: string; subject: string; scope: string; grantId: string; now: Date },
): Promise<IssuedTokens | OAuthFailure> {
  const user = sandboxUserById(input.subject);
  if (!user) return invalidGrant('unknown user');
  if (user.failure) {
    return {
      status: 403,
      error: 'access_denied',
      description: 'this sandbox user cannot connect',
      code: user.failure,
    };
  }
  const accessToken = randomToken('cfx_at_');
  const refreshToken = randomToken('cfx_rt_');
  const base = {
    clientId: input.clientId,
    subject: input.subject,
    scope: input.scope,
    grantId: input.grantId,
  };
  await db.insert(carfaxSandboxTokens).values([
    {
      ...base,
      tokenHash: sha256(accessToken),
      kind: 'access',
      expiresAt: new Date(input.now.getTime() + user.accessTokenTtlSeconds * 1000),
    },
    {
      ...base,
      tokenHash: sha256(refreshToken),
      kind: 'refresh',
      expiresAt: new Date(input.now.getTime() + CARFAX_SANDBOX_REFRESH_TTL_SECONDS * 1000),
    },
  ]);
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: user.accessTokenTtlSeconds,
    refresh_token: refreshToken,
    scope: input.scope,
  };
}

async function revokeGrant(db: Database, grantId: string, now: Date): Promise<void> {
  await db
    .update(carfaxSandboxTokens)
    .set({ revokedAt: now })
    .where(and(eq(carfaxSandboxTokens.grantId, grantId), isNull(carfaxSandboxTokens.revokedAt)));
}

/** authorization_code (RFC 6749 §4.1.3) with PKCE S256 (RFC 7636 §4.6). */
export async function redeemCode(
  db: Database,
  input: { clientId: string; code: string; redirectUri: string; codeVerifier: string; now: Date },
): Promise<IssuedTokens | OAuthFailure> {
  // Taken once: the update that marks it consumed is the one that wins.
  const [row] = await db
    .update(carfaxSandboxCodes)
    .set({ consumedAt: input.now })
    .where(
      and(
        eq(carfaxSandboxCodes.codeHash, sha256(input.code)),
        isNull(carfaxSandboxCodes.consumedAt),
      ),
    )
    .returning();
  if (!row) {
    // A code used twice: revoke what the first use issued (RFC 6749 §4.1.2).
    const [used] = await db
      .select({ grantId: carfaxSandboxCodes.grantId })
      .from(carfaxSandboxCodes)
      .where(eq(carfaxSandboxCodes.codeHash, sha256(input.code)))
      .limit(1);
    if (used) await revokeGrant(db, used.grantId, input.now);
    return invalidGrant('unknown or used code');
  }
  if (row.expiresAt.getTime() <= input.now.getTime()) return invalidGrant('code expired');
  if (row.clientId !== input.clientId) return invalidGrant('code issued to another client');
  if (row.redirectUri !== input.redirectUri) return invalidGrant('redirect_uri does not match');
  if (
    !/^[\w.~-]{43,128}$/.test(input.codeVerifier) ||
    sha256(input.codeVerifier) !== row.codeChallenge
  )
    return invalidGrant('code_verifier does not match');
  return issueTokens(db, {
    clientId: row.clientId,
    subject: row.subject,
    scope: row.scope,
    grantId: row.grantId,
    now: input.now,
  });
}

/** refresh_token (RFC 6749 §6): the refresh token is rotated; the old one stops working. */
export async function refreshGrant(
  db: Database,
  input: { clientId: string; refreshToken: string; now: Date },
): Promise<IssuedTokens | OAuthFailure> {
  const [row] = await db
    .update(carfaxSandboxTokens)
    .set({ revokedAt: input.now })
    .where(
      and(
        eq(carfaxSandboxTokens.tokenHash, sha256(input.refreshToken)),
        eq(carfaxSandboxTokens.kind, 'refresh'),
        isNull(carfaxSandboxTokens.revokedAt),
      ),
    )
    .returning();
  if (!row || row.clientId !== input.clientId) return invalidGrant('unknown refresh token');
  if (row.expiresAt.getTime() <= input.now.getTime()) return invalidGrant('refresh token expired');
  return issueTokens(db, {
    clientId: row.clientId,
    subject: row.subject,
    scope: row.scope,
    grantId: row.grantId,
    now: input.now,
  });
}

/** RFC 7009: revoking either token ends the whole grant; unknown tokens are not an error. */
export async function revokeSandboxToken(
  db: Database,
  input: { clientId: string; token: string; now: Date },
): Promise<void> {
  const [row] = await db
    .select({ grantId: carfaxSandboxTokens.grantId, clientId: carfaxSandboxTokens.clientId })
    .from(carfaxSandboxTokens)
    .where(eq(carfaxSandboxTokens.tokenHash, sha256(input.token)))
    .limit(1);
  if (row && row.clientId === input.clientId) await revokeGrant(db, row.grantId, input.now);
}

/** Whether an access token is good now (the sandbox's protected resource and its tests). */
export async function sandboxAccessTokenActive(
  db: Database,
  token: string,
  now: Date,
): Promise<boolean> {
  const [row] = await db
    .select()
    .from(carfaxSandboxTokens)
    .where(eq(carfaxSandboxTokens.tokenHash, sha256(token)))
    .limit(1);
  return Boolean(
    row && row.kind === 'access' && !row.revokedAt && row.expiresAt.getTime() > now.getTime(),
  );
}
