import { inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';

/** The outbox's rows still waiting to be sent and those given up, for the metrics. */
export async function countOutbox(db: Database): Promise<{ pending: number; failed: number }> {
  const rows = await db
    .select({ status: mailOutbox.status, n: sql<number | string>`count(*)` })
    .from(mailOutbox)
    .where(inArray(mailOutbox.status, ['pending', 'failed']))
    .groupBy(mailOutbox.status);
  const counts = new Map(rows.map((row) => [row.status, Number(row.n)]));
  return { pending: counts.get('pending') ?? 0, failed: counts.get('failed') ?? 0 };
}
