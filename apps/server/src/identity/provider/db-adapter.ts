import { and, eq, isNull, gt, or, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import { oidcPayloads } from '../../db/schema.ts';
import { hmac } from '../../lib/keys.ts';
import { open, seal } from '../../lib/secret-box.ts';

/** The adapter's keys: one to hash the ids it looks rows up by, one to seal the payloads. */
export interface OidcStorageKeys {
  lookup: Buffer;
  encryption: Buffer;
}

/**
 * What a row is keyed and looked up by instead of the id itself: the ids of access tokens,
 * refresh tokens, codes and sessions are the credentials, so none is stored as it is (issue 13).
 * A keyed hash rather than a plain one, so a copy of the table alone cannot confirm a guess.
 */
export function oidcStorageId(key: Buffer, model: string, id: string): string {
  return hmac(key, `${model}:${id}`);
}

/**
 * oidc-provider's storage in our database (issue 4: "its state lives in the database, not in
 * memory"), so a restart or a second instance loses no provider session, grant, code or token.
 * Ids, uids, user codes and grant ids are stored as keyed hashes and each payload is sealed (it
 * repeats the id as `jti`), bound to its row. Expired rows are invisible at once and purged by
 * the background job.
 */
export function createAdapterFactory(db: Database, keys: OidcStorageKeys) {
  return (model: string): Adapter => {
    const hashed = (id: string) => oidcStorageId(keys.lookup, model, id);
    // Grants are revoked across models: their hash does not depend on the row's model.
    const hashedGrant = (grantId: string) => oidcStorageId(keys.lookup, 'Grant', grantId);
    const unexpired = or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, sql`now()`));

    const read = async (
      column: typeof oidcPayloads.id | typeof oidcPayloads.uid | typeof oidcPayloads.userCode,
      value: string,
    ): Promise<AdapterPayload | undefined> => {
      const [row] = await db
        .select({
          id: oidcPayloads.id,
          payloadEnc: oidcPayloads.payloadEnc,
          consumedAt: oidcPayloads.consumedAt,
        })
        .from(oidcPayloads)
        .where(and(eq(oidcPayloads.model, model), eq(column, hashed(value)), unexpired))
        .limit(1);
      if (!row) return undefined;
      const payload = JSON.parse(
        open(keys.encryption, row.payloadEnc, `${model}:${row.id}`),
      ) as AdapterPayload;
      return row.consumedAt
        ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) }
        : payload;
    };

    return {
      async upsert(id, payload, expiresIn) {
        const key = hashed(id);
        const values = {
          payloadEnc: seal(keys.encryption, JSON.stringify(payload), `${model}:${key}`),
          grantId: typeof payload.grantId === 'string' ? hashedGrant(payload.grantId) : null,
          userCode: typeof payload.userCode === 'string' ? hashed(payload.userCode) : null,
          uid: typeof payload.uid === 'string' ? hashed(payload.uid) : null,
          expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
        };
        await db
          .insert(oidcPayloads)
          .values({ model, id: key, ...values })
          .onConflictDoUpdate({ target: [oidcPayloads.model, oidcPayloads.id], set: values });
      },
      find: (id) => read(oidcPayloads.id, id),
      findByUid: (uid) => read(oidcPayloads.uid, uid),
      findByUserCode: (userCode) => read(oidcPayloads.userCode, userCode),
      async consume(id) {
        await db
          .update(oidcPayloads)
          .set({ consumedAt: new Date() })
          .where(and(eq(oidcPayloads.model, model), eq(oidcPayloads.id, hashed(id))));
      },
      async destroy(id) {
        await db
          .delete(oidcPayloads)
          .where(and(eq(oidcPayloads.model, model), eq(oidcPayloads.id, hashed(id))));
      },
      async revokeByGrantId(grantId) {
        await db.delete(oidcPayloads).where(eq(oidcPayloads.grantId, hashedGrant(grantId)));
      },
    };
  };
}

/** Rows past their expiry are already invisible; this only reclaims the space. */
export async function purgeExpiredOidcPayloads(db: Database): Promise<void> {
  await db.delete(oidcPayloads).where(sql`${oidcPayloads.expiresAt} < now() - interval '1 hour'`);
}
