import { asc, desc, isNotNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { oidcKeys, sessions } from '../../db/schema.ts';
import { KEY_AAD } from '../../identity/provider/signing-keys.ts';
import { open } from '../../lib/secret-box.ts';

/**
 * Whether the server's encryption key opens what the database already holds sealed (issue 27,
 * item 10): the embedded provider's first signing key (made at the first start with it) and the
 * newest dealer session's tokens. A database first started with another secret fails here, at
 * start, instead of with the cipher's stack trace when the provider loads its keys. An empty
 * database has nothing sealed yet: nothing to compare, so true.
 */
export async function checkSecretKey(db: Database, encryptionKey: Buffer): Promise<boolean> {
  const [key] = await db
    .select({ sealed: oidcKeys.privateJwkEnc })
    .from(oidcKeys)
    .orderBy(asc(oidcKeys.createdAt))
    .limit(1);
  const [session] = await db
    .select({ sealed: sessions.tokensEnc, idHash: sessions.idHash })
    .from(sessions)
    .where(isNotNull(sessions.tokensEnc))
    .orderBy(desc(sessions.createdAt))
    .limit(1);
  const probes: [string, string][] = [];
  if (key) probes.push([key.sealed, KEY_AAD]);
  if (session?.sealed) probes.push([session.sealed, session.idHash]);
  return probes.every(([sealed, additionalData]) => {
    try {
      open(encryptionKey, sealed, additionalData);
      return true;
    } catch {
      return false;
    }
  });
}
