/**
 * How a receipt is kept in `payments.receipt_pdf` (decision 066). A receipt is some 43 kB, most
 * of it the two embedded font programs, which nearly every receipt has byte for byte (their
 * subsets hold a fixed set of characters, lib/pdf/write-pdf.ts), and most of the rest the same
 * page skeleton. Stored whole, each payment of the billing run wrote all of it. So a receipt is
 * stored as:
 *
 *   'DPR1' | PDF length (u32) | PDF CRC-32 (u32) | dictionary digest (32) | n (u8)
 *   | n × (offset in the PDF (u32), part digest (32))
 *   | the PDF with those parts cut out, raw deflate with the dictionary
 *
 * where every digest is the SHA-256 of a part in `receipt_parts`. Reading splices the parts back
 * and checks the length and CRC-32, so what comes out is the PDF that was rendered, byte for byte.
 * Rows written before stay PDFs ('%PDF-…') and are read as they are. A font program that is not
 * a shared part (a receipt drawing accented letters) stays in the remainder.
 */
import { createHash } from 'node:crypto';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { receiptParts } from '../../db/schema.ts';
import { sharedFontProgram, type IWrittenPdf } from '../../lib/pdf/write-pdf.ts';
import { renderReceipt } from './render-receipt.ts';
import { sampleReceipt } from './sample-receipt.ts';

const MAGIC = Buffer.from('DPR1', 'latin1');
const DIGEST = 32;
const FIXED = 4 + 4 + 4 + DIGEST + 1;
const REFERENCE = 4 + DIGEST;

export interface IPart {
  digest: Buffer;
  data: Buffer;
}

/** A part and its digest. */
export function receiptPart(data: Buffer): IPart {
  return { digest: createHash('sha256').update(data).digest(), data };
}

/** The PDF with the given byte ranges left out. */
function without(pdf: Buffer, ranges: readonly { start: number; length: number }[]): Buffer {
  const pieces: Buffer[] = [];
  let at = 0;
  for (const range of ranges) {
    pieces.push(pdf.subarray(at, range.start));
    at = range.start + range.length;
  }
  pieces.push(pdf.subarray(at));
  return Buffer.concat(pieces);
}

export interface ISharedParts {
  dictionary: IPart;
  fonts: IPart[];
}

let current: ISharedParts | undefined;

/**
 * The parts this version of the code shares: the font programs of the shared codes, and as the
 * dictionary the sample receipt without its font programs (18 kB, within deflate's 32 kB
 * window). Made once.
 */
export function currentReceiptParts(): ISharedParts {
  if (!current) {
    const sample = renderReceipt(sampleReceipt());
    current = {
      dictionary: receiptPart(without(sample.pdf, sample.fontPrograms)),
      fonts: [receiptPart(sharedFontProgram('Sans')), receiptPart(sharedFontProgram('Sans-Bold'))],
    };
  }
  return current;
}

/** The form `payments.receipt_pdf` stores for a receipt just rendered. */
export function packReceipt(
  written: IWrittenPdf,
  shared: ISharedParts = currentReceiptParts(),
): Buffer {
  const { pdf } = written;
  const cut: { start: number; length: number; digest: Buffer }[] = [];
  for (const range of written.fontPrograms) {
    const data = pdf.subarray(range.start, range.start + range.length);
    const known = shared.fonts.find((font) => font.data.equals(data));
    if (known) cut.push({ ...range, digest: known.digest });
  }
  // The dictionary holds the skeleton receipts repeat, so the remainder deflates to a tenth; a
  // low level costs a third of the default's time for a few per cent more bytes.
  const body = deflateRawSync(without(pdf, cut), {
    level: 2,
    dictionary: shared.dictionary.data,
  });
  const head = Buffer.alloc(FIXED + cut.length * REFERENCE);
  MAGIC.copy(head, 0);
  head.writeUInt32BE(pdf.length, 4);
  head.writeUInt32BE(crc32(pdf), 8);
  shared.dictionary.digest.copy(head, 12);
  head.writeUInt8(cut.length, 12 + DIGEST);
  cut.forEach((range, i) => {
    const at = FIXED + i * REFERENCE;
    head.writeUInt32BE(range.start, at);
    range.digest.copy(head, at + 4);
  });
  return Buffer.concat([head, body]);
}

/** The digests (hex) of the parts a stored receipt needs; none for a receipt stored whole. */
export function partsOf(stored: Buffer): string[] {
  if (!isPacked(stored)) return [];
  const count = stored.readUInt8(12 + DIGEST);
  const digests = [stored.toString('hex', 12, 12 + DIGEST)];
  for (let i = 0; i < count; i++) {
    const at = FIXED + i * REFERENCE + 4;
    digests.push(stored.toString('hex', at, at + DIGEST));
  }
  return digests;
}

function isPacked(stored: Buffer): boolean {
  return stored.length >= FIXED && stored.subarray(0, 4).equals(MAGIC);
}

/** The PDF a stored receipt holds; `parts` gives each part by its digest (hex). */
export function unpackReceipt(
  stored: Buffer,
  parts: (digest: string) => Buffer | undefined,
): Buffer {
  if (!isPacked(stored)) return stored;
  const need = (digest: string) => {
    const data = parts(digest);
    if (!data) throw new Error(`a stored receipt needs part ${digest}, which is not stored`);
    return data;
  };
  const [dictionaryDigest, ...partDigests] = partsOf(stored);
  const count = partDigests.length;
  const rest = inflateRawSync(stored.subarray(FIXED + count * REFERENCE), {
    dictionary: need(dictionaryDigest!),
  });
  const pieces: Buffer[] = [];
  let from = 0; // in the remainder
  let at = 0; // in the PDF
  partDigests.forEach((digest, i) => {
    const offset = stored.readUInt32BE(FIXED + i * REFERENCE);
    const data = need(digest);
    pieces.push(rest.subarray(from, from + offset - at), data);
    from += offset - at;
    at = offset + data.length;
  });
  pieces.push(rest.subarray(from));
  const pdf = Buffer.concat(pieces);
  if (pdf.length !== stored.readUInt32BE(4) || crc32(pdf) !== stored.readUInt32BE(8)) {
    throw new Error('a stored receipt does not read back as the PDF it was stored from');
  }
  return pdf;
}

/** Parts read from the database, by digest (hex): content-addressed, so never out of date. */
const loaded = new Map<string, Buffer>();
const LOADED_LIMIT = 64;

/**
 * Stores this version's shared parts unless they are already (every process that writes
 * receipts, at start, before it writes one). Parts are only ever added.
 */
export async function storeReceiptParts(db: Database): Promise<void> {
  const shared = currentReceiptParts();
  await db
    .insert(receiptParts)
    .values([shared.dictionary, ...shared.fonts])
    .onConflictDoNothing();
}

/** The PDFs of stored receipts (`payments.receipt_pdf`), in the order given. */
export async function readStoredReceipts(
  db: Database,
  stored: readonly Buffer[],
): Promise<Buffer[]> {
  const shared = currentReceiptParts();
  const known = new Map<string, Buffer>(
    [shared.dictionary, ...shared.fonts].map((p) => [p.digest.toString('hex'), p.data]),
  );
  const wanted = new Set(stored.flatMap(partsOf));
  const missing = [...wanted].filter((digest) => !known.has(digest) && !loaded.has(digest));
  if (missing.length > 0) {
    const rows = await db
      .select()
      .from(receiptParts)
      .where(
        inArray(
          receiptParts.digest,
          missing.map((digest) => Buffer.from(digest, 'hex')),
        ),
      );
    if (loaded.size + rows.length > LOADED_LIMIT) loaded.clear();
    for (const row of rows) loaded.set(row.digest.toString('hex'), row.data);
  }
  return stored.map((one) =>
    unpackReceipt(one, (digest) => known.get(digest) ?? loaded.get(digest)),
  );
}

/** One stored receipt's PDF. */
export async function readStoredReceipt(db: Database, stored: Buffer): Promise<Buffer> {
  const [pdf] = await readStoredReceipts(db, [stored]);
  return pdf!;
}

/** A payment row's receipt columns for a receipt just rendered: its stored form and its CRC-32. */
/** A payment row's two receipt columns. */
export interface IReceiptColumns {
  receiptPdf: Buffer;
  receiptCrc32: number;
}

export function receiptColumns(written: IWrittenPdf): IReceiptColumns {
  const receiptPdf = packReceipt(written);
  // The stored form carries the PDF's CRC-32 already (bytes 8–11): computed once.
  return { receiptPdf, receiptCrc32: receiptPdf.readUInt32BE(8) };
}
