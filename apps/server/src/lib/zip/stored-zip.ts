/**
 * A zip writer for STORED entries (method 0, PKWARE APPNOTE 6.3): receipts are small PDFs whose
 * content is already compressed, so recompressing gains nothing (DECISIONS R9). Every entry's
 * bytes are known before its header is written, so sizes and CRC-32 sit in the local header
 * and no data descriptors are needed. The output is produced entry by entry as it is read: a
 * year's zip is never built whole in memory. No ZIP64: an archive stays under 4 GiB and 65,535
 * entries.
 */
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { isSafeFileName } from '@dealerpass/domain/schemas/payment-history';
import { dosDateTime, type IDosDateTime } from './dos-date-time.ts';

export interface IZipEntry {
  /** A plain file name: letters, digits, '.', '_' and '-' (the domain's safe-name rule). */
  name: string;
  data: Uint8Array;
  /**
   * The data's CRC-32 when it is already known (computed with zlib's crc32 when the data was
   * stored); computed here otherwise.
   */
  crc32?: number;
  /** Overrides the archive's modification time for this entry; a Date is read in `timeZone`. */
  modifiedAt?: Date | IDosDateTime;
}

export interface IStoredZipOptions {
  /** Modification time of every entry without its own. */
  modifiedAt: Date;
  /** The zone whose wall-clock time the DOS timestamps show (default UTC). */
  timeZone?: string;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const LOCAL_HEADER_SIZE = 30;
const CENTRAL_HEADER_SIZE = 46;
const END_SIZE = 22;
const VERSION_NEEDED = 20; // 2.0
const VERSION_MADE_BY = (3 << 8) | VERSION_NEEDED; // Unix, so the mode below is honoured
const FLAG_UTF8_NAME = 1 << 11;
const METHOD_STORED = 0;
const REGULAR_FILE_RW_R_R = 0o100644 * 0x10000;
const MAX_UINT32 = 0xffffffff;
const MAX_ENTRIES = 0xffff;

/** How much a stream buffers ahead of its reader. */
const HIGH_WATER_MARK = 64 * 1024;
/**
 * Local headers (about 52 bytes each) are cut from buffers of this size: small enough that
 * Buffer.allocUnsafe takes them from Node's shared pool, so a small archive costs no allocation.
 */
const SLAB_SIZE = 2 * 1024;

/** Safe names are ASCII (the domain rule), so each character is one byte. */
function ascii(buffer: Buffer, at: number, text: string): void {
  for (let i = 0; i < text.length; i++) buffer[at + i] = text.charCodeAt(i);
}

/** The exact size of the archive these entries make: lets a response carry Content-Length. */
export function storedZipSize(entries: readonly Pick<IZipEntry, 'name' | 'data'>[]): number {
  let size = END_SIZE;
  for (const { name, data } of entries) {
    size += LOCAL_HEADER_SIZE + CENTRAL_HEADER_SIZE + 2 * name.length + data.byteLength;
  }
  return size;
}

/**
 * Writes one archive entry by entry. `add` returns the entry's local header, which the caller
 * sends followed by the entry's own data (never copied, which also spares the garbage
 * collector); `finish` returns the central directory with its end record. Names are checked as
 * they come: safe characters only and unique, so nothing unzips outside its folder or over
 * another entry.
 */
export class StoredZipWriter {
  readonly #modifiedAt: Date;
  /** Computed when the first entry without a time of its own needs it (reading a zone costs). */
  #defaultTime: IDosDateTime | null = null;
  readonly #timeZone: string;
  readonly #names = new Set<string>();
  /** Local headers are cut from a slab of their own; a DataView writes a field in one step. */
  #slab = Buffer.allocUnsafe(0);
  #slabView = new DataView(this.#slab.buffer, 0, 0);
  #slabUsed = 0;
  #central = Buffer.allocUnsafe(0);
  #centralView = new DataView(this.#central.buffer, 0, 0);
  #centralUsed = 0;
  #count = 0;
  /** Bytes of local headers and data written so far: the next entry's offset. */
  #offset = 0;
  #finished = false;

  constructor(options: IStoredZipOptions) {
    this.#timeZone = options.timeZone ?? 'UTC';
    this.#modifiedAt = options.modifiedAt;
    if (Number.isNaN(options.modifiedAt.getTime())) {
      throw new Error('zip entry time is not a valid date');
    }
  }

  add(entry: IZipEntry): Buffer {
    if (this.#finished) throw new Error('zip: add after finish');
    const { name, data } = entry;
    if (!isSafeFileName(name, '')) {
      throw new Error(`zip: unsafe entry name ${JSON.stringify(name)}`);
    }
    if (this.#count >= MAX_ENTRIES) throw new Error('zip: too many entries');
    const size = data.byteLength;
    const localSize = LOCAL_HEADER_SIZE + name.length;
    if (this.#offset + localSize + size > MAX_UINT32) {
      throw new Error('zip: archive too large without ZIP64');
    }
    this.#names.add(name);
    if (this.#names.size === this.#count) throw new Error(`zip: duplicate entry name ${name}`);

    const modified = entry.modifiedAt;
    const { date, time } =
      modified === undefined
        ? (this.#defaultTime ??= dosDateTime(this.#modifiedAt, this.#timeZone))
        : modified instanceof Date
          ? dosDateTime(modified, this.#timeZone)
          : modified;
    const crc = entry.crc32 ?? crc32(data);

    if (this.#slabUsed + localSize > this.#slab.length) {
      this.#slab = Buffer.allocUnsafe(SLAB_SIZE);
      this.#slabView = new DataView(this.#slab.buffer, this.#slab.byteOffset, SLAB_SIZE);
      this.#slabUsed = 0;
    }
    const l = this.#slabUsed;
    const local = this.#slabView;
    local.setUint32(l, LOCAL_HEADER, true);
    local.setUint16(l + 4, VERSION_NEEDED, true);
    local.setUint16(l + 6, FLAG_UTF8_NAME, true);
    local.setUint16(l + 8, METHOD_STORED, true);
    local.setUint16(l + 10, time, true);
    local.setUint16(l + 12, date, true);
    local.setUint32(l + 14, crc, true);
    local.setUint32(l + 18, size, true); // compressed size: stored, so the same
    local.setUint32(l + 22, size, true);
    local.setUint16(l + 26, name.length, true);
    local.setUint16(l + 28, 0, true); // no extra field
    ascii(this.#slab, l + LOCAL_HEADER_SIZE, name);
    this.#slabUsed += localSize;

    const centralSize = CENTRAL_HEADER_SIZE + name.length;
    if (this.#centralUsed + centralSize > this.#central.length) {
      const grown = Buffer.allocUnsafe(Math.max(2048, 2 * (this.#centralUsed + centralSize)));
      this.#central.copy(grown, 0, 0, this.#centralUsed);
      this.#central = grown;
      this.#centralView = new DataView(grown.buffer, grown.byteOffset, grown.length);
    }
    const c = this.#centralUsed;
    const central = this.#centralView;
    central.setUint32(c, CENTRAL_HEADER, true);
    central.setUint16(c + 4, VERSION_MADE_BY, true);
    central.setUint16(c + 6, VERSION_NEEDED, true);
    central.setUint16(c + 8, FLAG_UTF8_NAME, true);
    central.setUint16(c + 10, METHOD_STORED, true);
    central.setUint16(c + 12, time, true);
    central.setUint16(c + 14, date, true);
    central.setUint32(c + 16, crc, true);
    central.setUint32(c + 20, size, true);
    central.setUint32(c + 24, size, true);
    central.setUint16(c + 28, name.length, true);
    central.setUint16(c + 30, 0, true); // extra field length
    central.setUint16(c + 32, 0, true); // comment length
    central.setUint16(c + 34, 0, true); // disk number
    central.setUint16(c + 36, 0, true); // internal attributes
    central.setUint32(c + 38, REGULAR_FILE_RW_R_R, true);
    central.setUint32(c + 42, this.#offset, true);
    ascii(this.#central, c + CENTRAL_HEADER_SIZE, name);
    this.#centralUsed += centralSize;

    this.#count++;
    this.#offset += localSize + size;
    return this.#slab.subarray(l, l + localSize);
  }

  /** The central directory and its end record: the archive's last bytes. */
  finish(): Buffer {
    if (this.#finished) throw new Error('zip: finish called twice');
    this.#finished = true;
    if (this.#offset + this.#centralUsed > MAX_UINT32) {
      throw new Error('zip: archive too large without ZIP64');
    }
    const tail = Buffer.allocUnsafe(this.#centralUsed + END_SIZE);
    this.#central.copy(tail, 0, 0, this.#centralUsed);
    const end = new DataView(tail.buffer, tail.byteOffset + this.#centralUsed, END_SIZE);
    end.setUint32(0, END_OF_CENTRAL_DIRECTORY, true);
    end.setUint16(4, 0, true); // this disk
    end.setUint16(6, 0, true); // disk where the central directory starts
    end.setUint16(8, this.#count, true);
    end.setUint16(10, this.#count, true);
    end.setUint32(12, this.#centralUsed, true);
    end.setUint32(16, this.#offset, true);
    end.setUint16(20, 0, true); // comment length
    return tail;
  }
}

/** The archive's bytes for entries that arrive one by one (a database cursor, say). */
export async function* storedZipChunksFrom(
  entries: AsyncIterable<IZipEntry>,
  options: IStoredZipOptions,
): AsyncGenerator<Uint8Array> {
  const writer = new StoredZipWriter(options);
  for await (const entry of entries) {
    yield writer.add(entry);
    yield entry.data;
  }
  yield writer.finish();
}

function isAsyncIterable<T>(value: Iterable<T> | AsyncIterable<T>): value is AsyncIterable<T> {
  return Symbol.asyncIterator in value;
}

/**
 * A stream that writes each entry when the reader wants more: no promise and no generator
 * step per chunk, which for small receipts would cost more than the CRC.
 */
function streamOf(entries: Iterator<IZipEntry>, options: IStoredZipOptions): Readable {
  const writer = new StoredZipWriter(options);
  let data: Uint8Array | null = null;
  return new Readable({
    highWaterMark: HIGH_WATER_MARK,
    read() {
      try {
        for (;;) {
          if (data) {
            const chunk = data;
            data = null;
            if (chunk.byteLength > 0 && !this.push(chunk)) return;
          }
          const next = entries.next();
          if (next.done) {
            this.push(writer.finish());
            this.push(null);
            return;
          }
          const header = writer.add(next.value);
          data = next.value.data;
          if (!this.push(header)) return;
        }
      } catch (error) {
        this.destroy(error as Error);
      }
    },
    destroy(error, callback) {
      entries.return?.();
      callback(error);
    },
  });
}

/**
 * A byte stream of the archive, ready for `reply.send()` or `pipeline()`. An invalid entry
 * destroys the stream with the error; check names and data before the first byte is sent.
 */
export function createStoredZip(
  entries: Iterable<IZipEntry> | AsyncIterable<IZipEntry>,
  options: IStoredZipOptions,
): Readable {
  if (isAsyncIterable(entries)) {
    return Readable.from(storedZipChunksFrom(entries, options), {
      objectMode: false,
      highWaterMark: HIGH_WATER_MARK,
    });
  }
  return streamOf(entries[Symbol.iterator](), options);
}
