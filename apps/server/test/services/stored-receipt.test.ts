/**
 * How receipts are stored (decision 066): without the bytes they share, which receipt_parts holds
 * once, and read back as the very PDF that was rendered, on the engine under test.
 */
import { crc32 } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptParts } from '../../src/db/schema.ts';
import { renderReceipt } from '../../src/services/receipts/render-receipt.ts';
import { sampleReceipt } from '../../src/services/receipts/sample-receipt.ts';
import {
  currentReceiptParts,
  packReceipt,
  partsOf,
  readStoredReceipts,
  receiptColumns,
  receiptPart,
  storeReceiptParts,
  unpackReceipt,
} from '../../src/services/receipts/stored-receipt.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const shared = currentReceiptParts();
const byDigest = new Map(
  [shared.dictionary, ...shared.fonts].map((part) => [part.digest.toString('hex'), part.data]),
);
const fromMemory = (digest: string) => byDigest.get(digest);

/** A receipt for `name`, otherwise the sample's, so receipts differ as the billing run's do. */
function receiptFor(name: string, paymentId = 'pay_stored_1') {
  return renderReceipt(
    sampleReceipt({
      paymentId,
      account: { dealerpassUserId: 'casey@example.com', name, email: 'casey@example.com' },
    }),
  );
}

describe('a stored receipt', () => {
  it('leaves out the shared font programs and keeps a tenth of the rest, byte for byte', () => {
    const written = receiptFor('Casey Dealer');
    const stored = packReceipt(written);
    expect(stored.subarray(0, 4).toString('latin1')).toBe('DPR1');
    // Small enough to stay in the payment's row (toast_tuple_target 4096, migration 0007).
    expect(stored.length).toBeLessThan(2048);
    expect(written.pdf.length).toBeGreaterThan(30_000);
    expect(partsOf(stored)).toEqual(
      [shared.dictionary, ...shared.fonts].map((part) => part.digest.toString('hex')),
    );
    expect(unpackReceipt(stored, fromMemory).equals(written.pdf)).toBe(true);
  });

  it('keeps a font program of its own when the page draws accented letters', () => {
    const written = receiptFor('Zoë Müller-Peña');
    const stored = packReceipt(written);
    // The name is drawn in one of the two fonts: the other's program is still the shared one.
    const [dictionary, ...fonts] = partsOf(stored);
    expect(dictionary).toBe(shared.dictionary.digest.toString('hex'));
    expect(fonts).toHaveLength(1);
    expect(shared.fonts.map((font) => font.digest.toString('hex'))).toContain(fonts[0]);
    expect(stored.length).toBeGreaterThan(10_000);
    expect(unpackReceipt(stored, fromMemory).equals(written.pdf)).toBe(true);
  });

  it('reads a receipt stored whole (rows from before migration 0028) as it is', () => {
    const { pdf } = receiptFor('Casey Dealer');
    expect(partsOf(pdf)).toEqual([]);
    expect(unpackReceipt(pdf, () => undefined)).toBe(pdf);
  });

  it('gives its columns: the stored form and the CRC-32 of the PDF', () => {
    const written = receiptFor('Casey Dealer');
    const columns = receiptColumns(written);
    expect(columns.receiptCrc32).toBe(crc32(written.pdf));
    expect(unpackReceipt(columns.receiptPdf, fromMemory).equals(written.pdf)).toBe(true);
  });

  it('refuses to read back bytes that are not what was stored, or without a part', () => {
    const stored = packReceipt(receiptFor('Casey Dealer'));
    const damaged = Buffer.from(stored);
    damaged.writeUInt32BE((damaged.readUInt32BE(8) ^ 1) >>> 0, 8); // the CRC-32 it promises
    expect(() => unpackReceipt(damaged, fromMemory)).toThrow(
      'a stored receipt does not read back as the PDF it was stored from',
    );
    const missing = shared.fonts[0]!.digest.toString('hex');
    expect(() =>
      unpackReceipt(stored, (digest) => (digest === missing ? undefined : fromMemory(digest))),
    ).toThrow(`a stored receipt needs part ${missing}, which is not stored`);
  });
});

describe('receipt parts in the database', () => {
  it('are stored once, however many processes store them at the same time', async () => {
    await Promise.all(Array.from({ length: 5 }, () => storeReceiptParts(t.app.db)));
    await storeReceiptParts(t.app.db);
    const rows = await t.app.db.select().from(receiptParts);
    const current = [shared.dictionary, ...shared.fonts];
    for (const part of current) {
      const row = rows.find((one) => one.digest.equals(part.digest));
      expect(row?.data.equals(part.data)).toBe(true);
    }
    expect(
      rows.filter((row) => current.some((part) => part.digest.equals(row.digest))),
    ).toHaveLength(3);
  });

  it('read back receipts an earlier version stored with parts this one does not make', async () => {
    // An earlier version's dictionary: any bytes will do; only the database has them.
    const earlier = {
      dictionary: receiptPart(Buffer.from('%PDF-1.7 an older skeleton')),
      fonts: [],
    };
    const written = receiptFor('Casey Dealer', 'pay_stored_earlier');
    const stored = packReceipt(written, earlier);
    await expect(readStoredReceipts(t.app.db, [stored])).rejects.toThrow(
      `a stored receipt needs part ${earlier.dictionary.digest.toString('hex')}, which is not stored`,
    );
    await t.app.db.insert(receiptParts).values(earlier.dictionary);
    const [pdf] = await readStoredReceipts(t.app.db, [stored]);
    expect(pdf!.equals(written.pdf)).toBe(true);
  });

  it('carry every byte value through the database driver unchanged', async () => {
    const every = receiptPart(Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256)));
    await t.app.db.insert(receiptParts).values(every);
    const result = (await t.app.db.execute(
      sql`select data, encode(data, 'hex') as hex from receipt_parts where digest = ${every.digest}`,
    )) as unknown as { rows: { data: Uint8Array; hex: string }[] };
    expect(Buffer.from(result.rows[0]!.data).equals(every.data)).toBe(true);
    expect(result.rows[0]!.hex).toBe(every.data.toString('hex'));
  });

  it('are kept as they are, not compressed again (migration 0028)', async () => {
    const result = (await t.app.db.execute(sql`
      select a.attstorage from pg_attribute a join pg_class c on a.attrelid = c.oid
      where c.relname = 'receipt_parts' and a.attname = 'data'`)) as unknown as {
      rows: { attstorage: string }[];
    };
    expect(result.rows).toEqual([{ attstorage: 'e' }]);
  });
});
