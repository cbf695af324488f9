import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { plainDealer } from '../factories/admin-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';

/**
 * Migration 0018 (issue 26): complimentary moves from the text flag in account_status_details to
 * a boolean column. Its backfill runs here again on rows written the old way, after the column
 * exists, and must carry every flagged account over and leave any other detail where it was.
 */
const MIGRATION = join(import.meta.dirname, '../../drizzle/0018_complimentary-column.sql');

describe('the complimentary column (migration 0018)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('backfills the column from the old text flag, however it was spelled, and clears the flag', async () => {
    const flagged = await plainDealer(t, { accountStatusDetails: ' Complimentary ' });
    const plain = await plainDealer(t, { accountStatusDetails: 'migrated from legacy' });
    const none = await plainDealer(t);
    const [, ...backfill] = readFileSync(MIGRATION, 'utf8').split('--> statement-breakpoint');
    expect(backfill.length).toBeGreaterThan(0);
    for (const statement of backfill) await t.app.db.execute(sql.raw(statement));

    const row = async (id: string) => {
      const [found] = await t.app.db
        .select({ complimentary: users.complimentary, details: users.accountStatusDetails })
        .from(users)
        .where(eq(users.id, id));
      return found;
    };
    expect(await row(flagged.id)).toEqual({ complimentary: true, details: null });
    expect(await row(plain.id)).toEqual({ complimentary: false, details: 'migrated from legacy' });
    expect(await row(none.id)).toEqual({ complimentary: false, details: null });
  });
});
