import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { asc } from 'drizzle-orm';
import type { JWK } from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import { oidcKeys } from '../../db/schema.ts';
import { open, seal } from '../../lib/secret-box.ts';

/** What each sealed signing key is bound to (its additional data). */
export const KEY_AAD = 'oidc-signing-key';

/**
 * The provider's signing keys: created once (RS256, 2048 bits), kept in the database sealed with
 * the server's encryption key, and read by every instance. Two instances starting together on an
 * empty database may both add a key; both keys are then published and either may sign.
 */
export async function loadSigningKeys(db: Database, encryptionKey: Buffer): Promise<JWK[]> {
  let rows = await db.select().from(oidcKeys).orderBy(asc(oidcKeys.createdAt));
  if (rows.length === 0) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const kid = randomUUID();
    const jwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
    await db
      .insert(oidcKeys)
      .values({ kid, privateJwkEnc: seal(encryptionKey, JSON.stringify(jwk), KEY_AAD) });
    rows = await db.select().from(oidcKeys).orderBy(asc(oidcKeys.createdAt));
  }
  return rows.map((row) => JSON.parse(open(encryptionKey, row.privateJwkEnc, KEY_AAD)) as JWK);
}
