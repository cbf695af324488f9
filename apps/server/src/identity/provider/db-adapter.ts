import { and, eq, isNull, gt, or, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import { oidcPayloads } from '../../db/schema.ts';

/**
 * oidc-provider's storage in our database (issue 4: "its state lives in the database, not in
 * memory"), so a restart or a second instance loses no provider session, grant, code or token.
 * Expired rows are invisible at once and purged by the background job.
 */
export function createAdapterFactory(db: Database) {
  return (model: string): Adapter => {
    const live = (id: string) =>
      and(
        eq(oidcPayloads.model, model),
        eq(oidcPayloads.id, id),
        or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, sql`now()`)),
      );

    const read = async (condition: ReturnType<typeof and>): Promise<AdapterPayload | undefined> => {
      const [row] = await db
        .select({ payload: oidcPayloads.payload, consumedAt: oidcPayloads.consumedAt })
        .from(oidcPayloads)
        .where(condition)
        .limit(1);
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt
        ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) }
        : payload;
    };

    const findBy = (
      column: typeof oidcPayloads.uid | typeof oidcPayloads.userCode,
      value: string,
    ) =>
      read(
        and(
          eq(oidcPayloads.model, model),
          eq(column, value),
          or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, sql`now()`)),
        ),
      );

    return {
      async upsert(id, payload, expiresIn) {
        const values = {
          model,
          id,
          payload,
          grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
          userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
          uid: typeof payload.uid === 'string' ? payload.uid : null,
          expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
        };
        await db
          .insert(oidcPayloads)
          .values(values)
          .onConflictDoUpdate({
            target: [oidcPayloads.model, oidcPayloads.id],
            set: {
              payload,
              grantId: values.grantId,
              userCode: values.userCode,
              uid: values.uid,
              expiresAt: values.expiresAt,
            },
          });
      },
      find: (id) => read(live(id)),
      findByUid: (uid) => findBy(oidcPayloads.uid, uid),
      findByUserCode: (userCode) => findBy(oidcPayloads.userCode, userCode),
      async consume(id) {
        await db
          .update(oidcPayloads)
          .set({ consumedAt: new Date() })
          .where(and(eq(oidcPayloads.model, model), eq(oidcPayloads.id, id)));
      },
      async destroy(id) {
        await db
          .delete(oidcPayloads)
          .where(and(eq(oidcPayloads.model, model), eq(oidcPayloads.id, id)));
      },
      async revokeByGrantId(grantId) {
        await db.delete(oidcPayloads).where(eq(oidcPayloads.grantId, grantId));
      },
    };
  };
}

/** Rows past their expiry are already invisible; this only reclaims the space. */
export async function purgeExpiredOidcPayloads(db: Database): Promise<void> {
  await db.delete(oidcPayloads).where(sql`${oidcPayloads.expiresAt} < now() - interval '1 hour'`);
}
