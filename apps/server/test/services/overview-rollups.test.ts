/**
 * The overview's rollups (docs/decisions/051) against the tables they sum. Whatever writes the
 * ledger or the MRR history (one row, a statement of many, a changed amount, date, period or
 * quote, an account deleted with everything it had), `revenue_rollup` holds what the payments and
 * their periods' quotes add up to, computed here from the rows themselves, before and after the MRR
 * job merges it, and `account_item_totals` what each account's quote lines add by code and
 * business month (decision 061); and MRR read through `mrr_rollup` equals the history's own range query
 * (`valid_from < at <= valid_to`) at any instant (property). Runs on PGlite, and on PostgreSQL with
 * TEST_DATABASE_URL.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import {
  accountItemTotals,
  accountMrrHistory,
  billingPeriods,
  payments,
  users,
} from '../../src/db/schema.ts';
import { compactRollups } from '../../src/services/overview/compact-rollups.ts';
import { readMrr } from '../../src/services/overview/read-mrr.ts';
import { sqlRows } from '../../src/services/overview/sql-rows.ts';
import { plainDealer } from '../factories/admin-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

interface Quote {
  lines?: { code?: string; cents?: unknown }[];
  platformFeeCents?: unknown;
}

const quote = (lines: [string, number][], feeCents = 300): Quote => ({
  lines: lines.map(([code, cents]) => ({ code, name: code, cents, listCents: cents, free: false })),
  platformFeeCents: feeCents,
});

/** What the payments and their periods' quotes add up to, per date, part and code, from the rows. */
async function revenueFromLedger(): Promise<Record<string, number>> {
  const rows = await t.app.db
    .select({
      date: payments.activationDate,
      amount: payments.amountCents,
      quote: billingPeriods.quote,
    })
    .from(payments)
    .leftJoin(billingPeriods, eq(billingPeriods.id, payments.billingPeriodId));
  const sums: Record<string, number> = {};
  const add = (key: string, cents: number) => {
    sums[key] = (sums[key] ?? 0) + cents;
    if (sums[key] === 0) delete sums[key];
  };
  const whole = (value: unknown) =>
    typeof value === 'number' && Number.isInteger(value) ? value : null;
  for (const row of rows) {
    add(`${row.date} paid `, row.amount);
    const q = row.quote as Quote | null;
    const fee = whole(q?.platformFeeCents);
    if (fee !== null) add(`${row.date} fee `, fee);
    for (const line of Array.isArray(q?.lines) ? q.lines : []) {
      const cents = whole(line.cents);
      if (cents !== null) add(`${row.date} item ${line.code ?? ''}`, cents);
    }
  }
  return sums;
}

async function revenueFromRollup(): Promise<Record<string, number>> {
  const rows = await sqlRows<{ date: string; part: string; code: string; cents: number }>(
    t.app.db,
    sql`select business_date::text as date, part, code, sum(cents)::bigint as cents
      from revenue_rollup group by 1, 2, 3 having sum(cents) <> 0`,
  );
  return Object.fromEntries(
    rows.map((row) => [`${row.date} ${row.part} ${row.code}`, Number(row.cents)]),
  );
}

/**
 * What the payments' quote lines add per account, code and business month, from the rows: cents
 * and lines (free lines too; the platform fee as PLATFORM_FEE when it is not 0), those that are
 * not both 0.
 */
async function itemsFromLedger(): Promise<Record<string, [number, number]>> {
  const rows = await t.app.db
    .select({ userId: payments.userId, date: payments.activationDate, quote: billingPeriods.quote })
    .from(payments)
    .innerJoin(billingPeriods, eq(billingPeriods.id, payments.billingPeriodId));
  const sums: Record<string, [number, number]> = {};
  const add = (key: string, cents: number) => {
    const [total, lines] = sums[key] ?? [0, 0];
    sums[key] = [total + cents, lines + 1];
  };
  const whole = (value: unknown) =>
    typeof value === 'number' && Number.isInteger(value) ? value : null;
  for (const row of rows) {
    const month = row.date.slice(0, 7);
    const q = row.quote as Quote | null;
    const fee = whole(q?.platformFeeCents);
    if (fee) add(`${row.userId} PLATFORM_FEE ${month}`, fee);
    for (const line of Array.isArray(q?.lines) ? q.lines : []) {
      const cents = whole(line.cents);
      if (cents !== null) add(`${row.userId} ${line.code ?? ''} ${month}`, cents);
    }
  }
  for (const [key, [cents, lines]] of Object.entries(sums)) {
    if (cents === 0 && lines === 0) delete sums[key];
  }
  return sums;
}

/** The same from account_item_totals: each month's running totals less the month before's. */
async function itemsFromTotals(): Promise<Record<string, [number, number]>> {
  const rows = await t.app.db.select().from(accountItemTotals);
  const sums: Record<string, [number, number]> = {};
  for (const row of rows) {
    expect(row.lines).toHaveLength(row.cents.length);
    row.cents.forEach((cents, index) => {
      const month = row.firstMonth + index;
      const change: [number, number] = [
        Number(cents) - Number(row.cents[index - 1] ?? 0),
        Number(row.lines[index]) - Number(row.lines[index - 1] ?? 0),
      ];
      const name = `${Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}`;
      if (change[0] !== 0 || change[1] !== 0) sums[`${row.userId} ${row.code} ${name}`] = change;
    });
  }
  return sums;
}

/** Both rollups against the ledger. */
/**
 * Each payment's quote as `billing_quotes` holds it (decision 062) beside its period's quote as it
 * stands, by payment id; and how many quotes are stored more than once (none: the id is the text).
 */
async function paymentQuotes(): Promise<{
  named: Record<string, [unknown, unknown]>;
  doubled: number;
}> {
  const rows = await sqlRows<{ id: string; stored: unknown; period: unknown }>(
    t.app.db,
    sql`select p.id::text as id, q.quote as stored, bp.quote as period
      from payments p
      join billing_periods bp on bp.id = p.billing_period_id
      left join billing_quotes q on q.id = p.quote_id`,
  );
  const [doubled] = await sqlRows<{ count: number }>(
    t.app.db,
    sql`select count(*)::int as count from (select quote from billing_quotes
      group by quote having count(*) > 1) twice`,
  );
  return {
    named: Object.fromEntries(rows.map((row) => [row.id, [row.stored, row.period]])),
    doubled: Number(doubled!.count),
  };
}

async function expectQuotesOfPeriods() {
  const { named, doubled } = await paymentQuotes();
  for (const [id, [stored, current]] of Object.entries(named)) {
    expect({ id, quote: stored }).toEqual({ id, quote: current });
  }
  expect(doubled).toBe(0);
}

async function expectRollupsOfLedger() {
  expect(await revenueFromRollup()).toEqual(await revenueFromLedger());
  expect(await itemsFromTotals()).toEqual(await itemsFromLedger());
  await expectQuotesOfPeriods();
}

async function rollupRows(table: 'revenue_rollup' | 'mrr_rollup'): Promise<number> {
  const [row] = await sqlRows<{ count: number }>(
    t.app.db,
    sql`select count(*)::int as count from ${sql.identifier(table)}`,
  );
  return Number(row!.count);
}

async function period(userId: string, start: string, q: Quote, amountCents = 13_800) {
  const [row] = await t.app.db
    .insert(billingPeriods)
    .values({
      userId,
      kind: 'renewal',
      periodStart: start,
      periodEnd: start,
      amountCents,
      quote: q,
      status: 'paid',
      idempotencyKey: `rollup-${randomUUID()}`,
    })
    .returning();
  return row!;
}

const paymentRow = (userId: string, periodId: string, date: string, amountCents: number) => ({
  userId,
  billingPeriodId: periodId,
  amountCents,
  gatewayTransactionId: `txn-${randomUUID()}`,
  cardBrand: 'visa',
  cardLast4: '1111',
  activationDate: date,
  receiptPdf: Buffer.from('%PDF-1.7'),
});

describe('revenue_rollup (decision 051) and account_item_totals (decision 061)', () => {
  it('sums every payment however it was written, changed or deleted, and a merge moves no sum', async () => {
    const a = await plainDealer(t);
    const b = await plainDealer(t);
    const standard = quote([
      ['NADA', 7000],
      ['MMR', 6500],
    ]);
    // Several payments in one statement (as the billing run records a batch), then one alone.
    const periods = await Promise.all([
      period(a.id, '2026-01-03', standard),
      period(a.id, '2026-02-03', standard),
      period(b.id, '2026-02-03', quote([['KBB', 6500]], 0)),
      // A quote the domain never writes: no lines, a fee that is not a whole number.
      period(b.id, '2026-03-03', { platformFeeCents: 2.5 }),
    ]);
    await t.app.db
      .insert(payments)
      .values([
        paymentRow(a.id, periods[0]!.id, '2026-01-03', 13_800),
        paymentRow(a.id, periods[1]!.id, '2026-02-03', 13_800),
        paymentRow(b.id, periods[2]!.id, '2026-02-03', 6_500),
      ]);
    const [alone] = await t.app.db
      .insert(payments)
      .values(paymentRow(b.id, periods[3]!.id, '2026-03-03', 999))
      .returning();
    await expectRollupsOfLedger();
    expect(await revenueFromRollup()).toMatchObject({
      '2026-02-03 paid ': 20_300,
      '2026-02-03 item NADA': 7000,
      '2026-02-03 item KBB': 6500,
      '2026-03-03 paid ': 999,
    });
    expect(await itemsFromTotals()).toMatchObject({
      [`${a.id} NADA 2026-01`]: [7000, 1],
      [`${a.id} NADA 2026-02`]: [7000, 1],
      [`${a.id} PLATFORM_FEE 2026-02`]: [300, 1],
      [`${b.id} KBB 2026-02`]: [6500, 1],
    });

    // A payment's amount, date and period changed; a paid period's quote changed.
    const moved = await period(b.id, '2026-04-03', quote([['AC', 1000]], 100));
    await t.app.db
      .update(payments)
      .set({ amountCents: 1100, activationDate: '2026-04-04', billingPeriodId: moved.id })
      .where(eq(payments.id, alone!.id));
    await t.app.db
      .update(billingPeriods)
      .set({ quote: quote([['MMR', 6500]], 0) })
      .where(eq(billingPeriods.id, periods[2]!.id));
    // A status change of a payment moves no money of its own in this rollup.
    await t.app.db
      .update(payments)
      .set({ status: 'refunded', refundedAt: new Date('2026-04-05T15:00:00Z') })
      .where(eq(payments.id, alone!.id));
    await expectRollupsOfLedger();

    // A payment deleted, then an account with its payments and periods (the cascade).
    const c = await plainDealer(t);
    const cPeriod = await period(c.id, '2026-02-03', standard);
    const [cPayment] = await t.app.db
      .insert(payments)
      .values(paymentRow(c.id, cPeriod.id, '2026-02-03', 13_800))
      .returning();
    await t.app.db.delete(payments).where(eq(payments.id, cPayment!.id));
    await expectRollupsOfLedger();
    await t.app.db.delete(users).where(eq(users.id, a.id));
    await expectRollupsOfLedger();

    const before = await revenueFromRollup();
    expect(await compactRollups(t.app.db)).toBeGreaterThan(0);
    expect(await revenueFromRollup()).toEqual(before);
    expect(await rollupRows('revenue_rollup')).toBe(Object.keys(before).length);
    expect(await itemsFromTotals()).toEqual(await itemsFromLedger());
    // Merged again: nothing left to merge.
    expect(await compactRollups(t.app.db)).toBe(0);
  });

  it('keeps an account’s running totals through batches of payments in any order of months, deletions and quote changes (property)', async () => {
    // Business dates of 31 months, the 1st to the 28th; each period its own start (one per day).
    let periods = 0;
    const month = (offset: number) =>
      `${2025 + Math.floor(offset / 12)}-${String((offset % 12) + 1).padStart(2, '0')}-${String((periods % 28) + 1).padStart(2, '0')}`;
    const periodStart = () => new Date(Date.UTC(2040, 0, 1 + periods++)).toISOString().slice(0, 10);
    const only = (sums: Record<string, [number, number]>, userId: string) =>
      Object.fromEntries(Object.entries(sums).filter(([key]) => key.startsWith(userId)));
    const payment = fc.record({
      month: fc.integer({ min: 0, max: 30 }),
      lines: fc.subarray(['NADA', 'MMR', 'CF'] as const),
      cents: fc.integer({ min: -500, max: 9000 }),
      fee: fc.constantFrom(0, 300),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(payment, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        fc.array(fc.nat(), { maxLength: 2 }),
        async (batches, deleted, requoted) => {
          const dealer = await plainDealer(t);
          const recorded: { id: string; periodId: string }[] = [];
          for (const batch of batches) {
            const rows = await Promise.all(
              batch.map(async (entry) => {
                const date = month(entry.month);
                const row = await period(
                  dealer.id,
                  periodStart(),
                  quote(
                    entry.lines.map((code) => [code, entry.cents]),
                    entry.fee,
                  ),
                );
                return paymentRow(dealer.id, row.id, date, 100);
              }),
            );
            // The batch in one statement, as the billing run writes one.
            const inserted = await t.app.db.insert(payments).values(rows).returning();
            recorded.push(
              ...inserted.map((row) => ({ id: row.id, periodId: row.billingPeriodId! })),
            );
            await expect(only(await itemsFromTotals(), dealer.id)).toEqual(
              only(await itemsFromLedger(), dealer.id),
            );
          }
          for (const index of requoted) {
            const target = recorded[index % recorded.length]!;
            await t.app.db
              .update(billingPeriods)
              .set({ quote: quote([['KBB', 4200]], 300) })
              .where(eq(billingPeriods.id, target.periodId));
          }
          for (const index of deleted) {
            const target = recorded[index % recorded.length]!;
            await t.app.db.delete(payments).where(eq(payments.id, target.id));
          }
          expect(only(await itemsFromTotals(), dealer.id)).toEqual(
            only(await itemsFromLedger(), dealer.id),
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  it('the migration’s backfill writes what the triggers wrote', async () => {
    const written = await itemsFromTotals();
    expect(Object.keys(written).length).toBeGreaterThan(10);
    const migration = readFileSync(
      new URL('../../drizzle/0026_account-item-totals.sql', import.meta.url),
      'utf8',
    );
    const backfill = migration.split('--> statement-breakpoint').at(-1)!;
    expect(backfill).toMatch(/^\s*-- What is there already/);
    await t.app.db.transaction(async (tx) => {
      await tx.execute(sql`delete from account_item_totals`);
      await tx.execute(sql.raw(backfill));
    });
    expect(await itemsFromTotals()).toEqual(written);
    expect(written).toEqual(await itemsFromLedger());
  });
});

describe('billing_quotes (decision 062)', () => {
  it('the migration’s backfill names the quotes the triggers named', async () => {
    const before = await paymentQuotes();
    expect(Object.keys(before.named).length).toBeGreaterThan(10);
    const migration = readFileSync(
      new URL('../../drizzle/0027_billing-quotes.sql', import.meta.url),
      'utf8',
    );
    const statements = migration.split('--> statement-breakpoint');
    const backfill = statements.filter((statement) =>
      /^\s*(-- The quotes of the payments already written[^]*)?(INSERT INTO "billing_quotes"|UPDATE "payments")/.test(
        statement,
      ),
    );
    expect(backfill).toHaveLength(2);
    await t.app.db.transaction(async (tx) => {
      await tx.execute(sql`update payments set quote_id = null`);
      await tx.execute(sql`delete from billing_quotes`);
      for (const statement of backfill) await tx.execute(sql.raw(statement));
    });
    expect(await paymentQuotes()).toEqual(before);
    await expectQuotesOfPeriods();
    // Only what the payments name: a quote the triggers kept for a payment since gone is not.
    const [stored] = await sqlRows<{ quotes: number; named: number }>(
      t.app.db,
      sql`select (select count(*)::int from billing_quotes) as quotes,
        (select count(distinct quote_id)::int from payments) as named`,
    );
    expect(Number(stored!.quotes)).toBe(Number(stored!.named));
  });
});

describe('billing_quotes beside another writer (decision 062)', () => {
  // Two connections at once need PostgreSQL (PGlite is one connection): the PostgreSQL run (CI).
  if (process.env.TEST_DATABASE_URL) {
    it('two writers storing the same new quotes in opposite orders never wait for each other', async () => {
      const a = await plainDealer(t);
      const b = await plainDealer(t);
      // Two quotes no payment has named yet, as on the first billing run after a price change.
      const x = quote([['NADA', 7001]]);
      const y = quote([['MMR', 6501]]);
      const periods = {
        ax: await period(a.id, '2027-01-03', x),
        ay: await period(a.id, '2027-02-03', y),
        bx: await period(b.id, '2027-01-03', x),
        by: await period(b.id, '2027-02-03', y),
      };
      // Each writer stores one quote, waits until the other has stored the other one, then
      // writes a payment of the other's quote: with a unique index on the quotes, each would wait
      // for the other's uncommitted row, and PostgreSQL would end one as a deadlock.
      // The transaction helper would run a deadlock's loser again (decision 028): each writer
      // must have run once.
      let arrived = 0;
      let runs = 0;
      let bothStored!: () => void;
      const barrier = new Promise<void>((resolve) => (bothStored = resolve));
      const writer = (userId: string, first: string, second: string, date: [string, string]) =>
        t.app.db.transaction(async (tx) => {
          runs += 1;
          await tx.insert(payments).values(paymentRow(userId, first, date[0], 7000));
          arrived += 1;
          if (arrived === 2) bothStored();
          await barrier;
          await tx.insert(payments).values(paymentRow(userId, second, date[1], 6500));
        });
      const outcomes = await Promise.allSettled([
        writer(a.id, periods.ax.id, periods.ay.id, ['2027-01-03', '2027-02-03']),
        writer(b.id, periods.by.id, periods.bx.id, ['2027-02-03', '2027-01-03']),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled']);
      expect(runs).toBe(2);
      // Every payment names its period's quote; a quote both stored is read as one.
      const { named } = await paymentQuotes();
      for (const [id, [stored, current]] of Object.entries(named)) {
        expect({ id, quote: stored }).toEqual({ id, quote: current });
      }
    });
  }
});

describe('mrr_rollup (decision 051)', () => {
  it('gives the history’s MRR at any instant and now, through every kind of write (property)', async () => {
    const x = await plainDealer(t);
    const y = await plainDealer(t);
    const z = await plainDealer(t);
    const row = (
      userId: string,
      from: string,
      to: string | null,
      mrrCents: number,
    ): typeof accountMrrHistory.$inferInsert => ({
      userId,
      validFrom: new Date(from),
      validTo: to === null ? null : new Date(to),
      status: ACCOUNT_STATUS.active,
      complimentary: false,
      codes: ['NADA'],
      monthlyCents: mrrCents,
      mrrCents,
    });
    // Instants on and off quarter hours, a row closed as it opened, one closed before it opened.
    await t.app.db
      .insert(accountMrrHistory)
      .values([
        row(x.id, '2026-01-03T15:07:11.250Z', '2026-02-01T05:00:00.000Z', 13_800),
        row(x.id, '2026-02-01T05:00:00.000Z', '2026-02-01T05:00:00.000Z', 9_900),
        row(x.id, '2026-02-10T12:00:00.000Z', '2026-02-10T11:59:00.000Z', 7_000),
        row(y.id, '2026-01-20T23:59:59.999Z', '2026-03-01T05:00:00.000Z', 20_300),
        row(z.id, '2026-02-14T08:14:59.999Z', null, 6_500),
      ]);
    await t.app.db
      .insert(accountMrrHistory)
      .values(row(x.id, '2026-02-11T10:10:10.010Z', null, 13_800));
    // A change: the open row closed and the next one opened (as record-mrr-state writes them).
    await t.app.db
      .update(accountMrrHistory)
      .set({ validTo: new Date('2026-03-15T16:31:00.000Z') })
      .where(sql`${accountMrrHistory.userId} = ${z.id} and valid_to is null`);
    await t.app.db.insert(accountMrrHistory).values(row(z.id, '2026-03-15T16:31:00.000Z', null, 0));
    // A price change's statement: close and reopen in one (refresh-mrr-history.ts).
    await t.app.db.execute(sql`
      with closed as (
        update account_mrr_history set valid_to = '2026-03-20T04:00:00Z'
        where user_id = ${x.id} and valid_to is null
        returning user_id, status, complimentary, cadence, codes)
      insert into account_mrr_history
        (user_id, valid_from, status, complimentary, cadence, codes, monthly_cents, mrr_cents)
      select user_id, '2026-03-20T04:00:00Z', status, complimentary, cadence, codes, 14500, 14500
      from closed`);
    // An account deleted with its history.
    const gone = await plainDealer(t);
    await t.app.db
      .insert(accountMrrHistory)
      .values(row(gone.id, '2026-01-05T10:00:00Z', null, 5_000));
    await t.app.db.delete(users).where(eq(users.id, gone.id));

    const history = await t.app.db.select().from(accountMrrHistory);
    const boundaries = history.flatMap((entry) =>
      [entry.validFrom, entry.validTo]
        .filter((at): at is Date => at !== null)
        .flatMap((at) => [at.getTime() - 1, at.getTime(), at.getTime() + 1]),
    );
    const expectedAt = async (at: Date) => {
      const [sum] = await sqlRows<{ cents: number }>(
        t.app.db,
        sql`select coalesce(sum(mrr_cents), 0)::bigint as cents from account_mrr_history
          where valid_from < ${at.toISOString()}::timestamptz
            and (valid_to is null or valid_to >= ${at.toISOString()}::timestamptz)`,
      );
      return Number(sum!.cents);
    };
    const [open] = await sqlRows<{ cents: number }>(
      t.app.db,
      sql`select coalesce(sum(mrr_cents), 0)::bigint as cents from account_mrr_history
        where valid_to is null`,
    );

    const check = async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.oneof(
              fc.constantFrom(...boundaries),
              // Any millisecond from late December to early April.
              fc
                .tuple(fc.integer({ min: 0, max: 100 * 86_400 }), fc.integer({ min: 0, max: 999 }))
                .map(([seconds, ms]) => Date.parse('2025-12-25T00:00:00Z') + seconds * 1000 + ms),
              // Quarter hours, and midnights in New York.
              fc
                .integer({ min: 0, max: 96 * 100 })
                .map((n) => Date.parse('2025-12-31T05:00:00Z') + n * 15 * 60_000),
            ),
            { minLength: 1, maxLength: 14 },
          ),
          async (instants) => {
            const ats = instants
              .map((ms) => new Date(ms))
              .sort((p, q) => p.getTime() - q.getTime());
            const read = await readMrr(t.app.db, ats);
            expect(read.atInstants).toEqual(await Promise.all(ats.map(expectedAt)));
            expect(read.openCents).toBe(Number(open!.cents));
          },
        ),
        { numRuns: 60 },
      );
    };
    await check();
    expect(await compactRollups(t.app.db)).toBeGreaterThan(0);
    await check();
  });
});
