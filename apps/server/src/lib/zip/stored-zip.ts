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

/** Little-endian fields, written byte by byte (cheaper than a DataView per buffer). */
function u16(buffer: Buffer, at: number, value: number): void {
  buffer[at] = value;
  buffer[at + 1] = value >>> 8;
}

function u32(buffer: Buffer, at: number, value: number): void {
  buffer[at] = value;
  buffer[at + 1] = value >>> 8;
  buffer[at + 2] = value >>> 16;
  buffer[at + 3] = value >>> 24;
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
  /** Local headers are cut from a slab of their own. */
  #slab: Buffer | null = null;
  #slabUsed = 0;
  #central: Buffer | null = null;
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

    let slab = this.#slab;
    if (!slab || this.#slabUsed + localSize > slab.length) {
      slab = this.#slab = Buffer.allocUnsafe(SLAB_SIZE);
      this.#slabUsed = 0;
    }
    const l = this.#slabUsed;
    u32(slab, l, LOCAL_HEADER);
    u16(slab, l + 4, VERSION_NEEDED);
    u16(slab, l + 6, FLAG_UTF8_NAME);
    u16(slab, l + 8, METHOD_STORED);
    u16(slab, l + 10, time);
    u16(slab, l + 12, date);
    u32(slab, l + 14, crc);
    u32(slab, l + 18, size); // compressed size: stored, so the same
    u32(slab, l + 22, size);
    u16(slab, l + 26, name.length);
    u16(slab, l + 28, 0); // no extra field
    // Safe names are ASCII (the domain rule), so each character is one byte.
    slab.write(name, l + LOCAL_HEADER_SIZE, 'latin1');
    this.#slabUsed += localSize;

    const centralSize = CENTRAL_HEADER_SIZE + name.length;
    let central = this.#central;
    if (!central || this.#centralUsed + centralSize > central.length) {
      const grown = Buffer.allocUnsafe(Math.max(2048, 2 * (this.#centralUsed + centralSize)));
      central?.copy(grown, 0, 0, this.#centralUsed);
      central = this.#central = grown;
    }
    const c = this.#centralUsed;
    u32(central, c, CENTRAL_HEADER);
    u16(central, c + 4, VERSION_MADE_BY);
    // From "version needed" to the extra field's length the fields equal the local header's.
    slab.copy(central, c + 6, l + 4, l + 30);
    u32(central, c + 30, 0); // extra field and comment lengths
    u32(central, c + 34, 0); // disk number, internal attributes
    u32(central, c + 38, REGULAR_FILE_RW_R_R);
    u32(central, c + 42, this.#offset);
    slab.copy(central, c + CENTRAL_HEADER_SIZE, l + LOCAL_HEADER_SIZE, l + localSize);
    this.#centralUsed += centralSize;

    this.#count++;
    this.#offset += localSize + size;
    return slab.subarray(l, l + localSize);
  }

  /** The central directory and its end record: the archive's last bytes. */
  finish(): Buffer {
    if (this.#finished) throw new Error('zip: finish called twice');
    this.#finished = true;
    if (this.#offset + this.#centralUsed > MAX_UINT32) {
      throw new Error('zip: archive too large without ZIP64');
    }
    const tail = Buffer.allocUnsafe(this.#centralUsed + END_SIZE);
    this.#central?.copy(tail, 0, 0, this.#centralUsed);
    const e = this.#centralUsed;
    u32(tail, e, END_OF_CENTRAL_DIRECTORY);
    u16(tail, e + 4, 0); // this disk
    u16(tail, e + 6, 0); // disk where the central directory starts
    u16(tail, e + 8, this.#count);
    u16(tail, e + 10, this.#count);
    u32(tail, e + 12, this.#centralUsed);
    u32(tail, e + 16, this.#offset);
    u16(tail, e + 20, 0); // comment length
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
