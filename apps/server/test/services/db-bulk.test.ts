/**
 * The billing run's bulk statements (db/bulk.ts) on the engine under test: every value of every
 * row arrives intact, whatever its type, including bytes, quotes, commas, braces and nulls. And
 * how the payments table stores receipts.
 */
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyOf, unnestRows } from '../../src/db/bulk.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Row {
  id: string;
  label: string | null;
  count: number;
  big: number;
  day: string;
  at: string;
  doc: string;
  bytes: Buffer;
}

const rows: Row[] = [
  {
    id: '00000000-0000-4000-8000-000000000001',
    label: 'plain',
    count: 1,
    big: 4_294_967_295,
    day: '2026-03-15',
    at: '2026-03-15T15:00:00.000Z',
    doc: JSON.stringify({ lines: [{ code: 'NADA', cents: 1000 }] }),
    bytes: Buffer.from('%PDF-1.4\n'),
  },
  {
    id: '00000000-0000-4000-8000-000000000002',
    label: 'with "quotes", commas, {braces} and \\ backslash',
    count: -7,
    big: 0,
    day: '2024-02-29',
    at: '2024-02-29T23:59:59.000Z',
    doc: JSON.stringify({ text: 'a "quoted" {x}' }),
    bytes: Buffer.alloc(0),
  },
  {
    id: '00000000-0000-4000-8000-000000000003',
    label: null,
    count: 0,
    big: 1,
    day: '2026-12-31',
    at: '2026-12-31T00:00:00.000Z',
    doc: '[]',
    bytes: Buffer.from([0, 1, 2, 0x5c, 0x7b, 0xff]),
  },
];

describe('unnestRows', () => {
  it('gives back every row and value as it was given, bytes included', async () => {
    const values = unnestRows(rows, {
      id: ['uuid', (row) => row.id],
      label: ['text', (row) => row.label],
      count: ['int', (row) => row.count],
      big: ['bigint', (row) => row.big],
      day: ['date', (row) => row.day],
      at: ['timestamptz', (row) => row.at],
      doc: ['jsonb', (row) => row.doc],
      bytes: ['bytea', (row) => row.bytes],
    });
    const result = (await t.app.db.execute(sql`
      select id::text, label, count, big::text, day::text,
        to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as at, doc,
        encode(bytes, 'hex') as hex
      from (${values.select}) as given order by id`)) as unknown as {
      rows: Record<string, unknown>[];
    };
    expect(result.rows).toEqual(
      rows.map((row) => ({
        id: row.id,
        label: row.label,
        count: row.count,
        big: String(row.big),
        day: row.day,
        at: row.at.slice(0, 19),
        doc: JSON.parse(row.doc) as unknown,
        hex: row.bytes.toString('hex'),
      })),
    );
  });

  it('sends a JSON document that repeats once, and every row still gets its own', async () => {
    const docs = ['{"a": 1}', '{"b": [2]}', '{"a": 1}', '{"a": 1}', '{"b": [2]}'];
    const values = unnestRows(
      docs.map((doc, i) => ({ i, doc })),
      { i: ['int', (row) => row.i], doc: ['jsonb', (row) => row.doc] },
    );
    const { params } = new PgDialect().sqlToQuery(values.select);
    expect(params).toContainEqual(['{"a": 1}', '{"b": [2]}']);
    expect(params).toContainEqual([1, 2, 1, 1, 2]);
    const result = (await t.app.db.execute(
      sql`select i, doc from (${values.select}) as given order by i`,
    )) as unknown as { rows: { i: number; doc: unknown }[] };
    expect(result.rows).toEqual(docs.map((doc, i) => ({ i, doc: JSON.parse(doc) as unknown })));
  });

  it('refuses a bytea value that is not bytes', () => {
    expect(() => unnestRows([{ b: 'text' }], { b: ['bytea', (row) => row.b] })).toThrow(
      'b: bytes expected',
    );
  });
});

describe('anyOf', () => {
  it('matches any of the values given as one array', async () => {
    const result = (await t.app.db.execute(sql`
      select value from unnest(array['a', 'b', 'c', 'd']) as value
      where ${anyOf(sql`value`, ['b', 'd', 'x'], 'text')} order by value`)) as unknown as {
      rows: { value: string }[];
    };
    expect(result.rows.map((row) => row.value)).toEqual(['b', 'd']);
  });
});

describe('payments storage (migration 0007)', () => {
  it('keeps a receipt in its row, without compressing it again', async () => {
    const result = (await t.app.db.execute(sql`
      select c.reloptions, a.attstorage
      from pg_class c join pg_attribute a on a.attrelid = c.oid
      where c.relname = 'payments' and a.attname = 'receipt_pdf'`)) as unknown as {
      rows: { reloptions: string[]; attstorage: string }[];
    };
    expect(result.rows).toEqual([{ reloptions: ['toast_tuple_target=4096'], attstorage: 'e' }]);
  });
});
