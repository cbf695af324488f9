import { expect } from 'vitest';

/**
 * An independent zip reader for tests: it walks the end record and the central directory, checks
 * every local header against it, and recomputes each entry's CRC-32 from the definition, so a
 * zip our writer makes is judged by code that shares nothing with it.
 */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (ISO 3309, the zip polynomial), bit by bit from its definition. */
export function referenceCrc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export interface ParsedEntry {
  name: string;
  data: Buffer;
  crc: number;
  flags: number;
  method: number;
  dosDate: number;
  dosTime: number;
  mode: number;
}

/** Reads an archive from its end record and central directory, checking each local header. */
export function readZip(zip: Buffer): ParsedEntry[] {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  expect(zip.readUInt16LE(end + 20)).toBe(0); // no comment: the record is the last 22 bytes
  const count = zip.readUInt16LE(end + 10);
  expect(zip.readUInt16LE(end + 8)).toBe(count);
  const centralSize = zip.readUInt32LE(end + 12);
  const centralOffset = zip.readUInt32LE(end + 16);
  expect(centralOffset + centralSize).toBe(end);

  const entries: ParsedEntry[] = [];
  let at = centralOffset;
  let expectedLocal = 0;
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const dosTime = zip.readUInt16LE(at + 12);
    const dosDate = zip.readUInt16LE(at + 14);
    const crc = zip.readUInt32LE(at + 16);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const mode = zip.readUInt32LE(at + 38) >>> 16;
    const localOffset = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;

    // Entries follow each other with no gaps, in central-directory order.
    expect(localOffset).toBe(expectedLocal);
    expect(zip.readUInt32LE(localOffset)).toBe(0x04034b50);
    expect(zip.readUInt16LE(localOffset + 6)).toBe(flags);
    expect(zip.readUInt16LE(localOffset + 8)).toBe(method);
    expect(zip.readUInt16LE(localOffset + 10)).toBe(dosTime);
    expect(zip.readUInt16LE(localOffset + 12)).toBe(dosDate);
    expect(zip.readUInt32LE(localOffset + 14)).toBe(crc);
    expect(zip.readUInt32LE(localOffset + 18)).toBe(compressed);
    expect(zip.readUInt32LE(localOffset + 22)).toBe(size);
    const localNameLength = zip.readUInt16LE(localOffset + 26);
    const localExtra = zip.readUInt16LE(localOffset + 28);
    expect(zip.toString('utf8', localOffset + 30, localOffset + 30 + localNameLength)).toBe(name);
    const dataStart = localOffset + 30 + localNameLength + localExtra;
    const data = zip.subarray(dataStart, dataStart + compressed);
    expect(compressed).toBe(size);
    expect(referenceCrc32(data)).toBe(crc);
    expectedLocal = dataStart + compressed;
    entries.push({ name, data, crc, flags, method, dosDate, dosTime, mode });
  }
  expect(expectedLocal).toBe(centralOffset);
  expect(at).toBe(end);
  return entries;
}

/** All of a stream's bytes (a response body, a zip being written). */
export async function collect(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The DOS date field (APPNOTE 4.4.6) of a 'YYYY-MM-DD' day. */
export const dosDateOf = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return ((y - 1980) << 9) | (m << 5) | d;
};
