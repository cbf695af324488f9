/**
 * A zip writer for STORED entries (method 0, PKWARE APPNOTE 6.3): receipts are small PDFs whose
 * content is already compressed, so recompressing gains nothing (DECISIONS R9). Every entry's
 * bytes are known before its header is written, so sizes and CRC-32 sit in the local header
 * and no data descriptors are needed. The output is produced as it is read: a year's zip is
 * never built whole in memory. No ZIP64: an archive stays under 4 GiB and 65,535 entries.
 */
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { isSafeFileName } from '@dealerpass/domain/schemas/payment-history';
import { dosDateTime, type IDosDateTime } from './dos-date-time.ts';

export interface IZipEntry {
  /** A plain file name: letters, digits, '.', '_' and '-' (the domain's safe-name rule). */
  name: string;
  data: Uint8Array;
  /** Overrides the archive's modification time for this entry. */
  modifiedAt?: Date;
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

/** Pieces below this are gathered into one chunk so a dozen small PDFs cost a few pushes. */
const CHUNK_SIZE = 64 * 1024;

/** The exact size of the archive these entries make: lets a response carry Content-Length. */
export function storedZipSize(entries: readonly Pick<IZipEntry, 'name' | 'data'>[]): number {
  let size = END_SIZE;
  for (const { name, data } of entries) {
    const nameLength = Buffer.byteLength(name, 'utf8');
    size += LOCAL_HEADER_SIZE + CENTRAL_HEADER_SIZE + 2 * nameLength + data.byteLength;
  }
  return size;
}

/**
 * Writes one archive entry by entry. `add` returns the entry's local header and data; `finish`
 * returns the central directory and its end record. Names are checked as they come: safe
 * characters only and unique, so nothing unzips outside its folder or over another entry.
 */
export class StoredZipWriter {
  readonly #defaultTime: IDosDateTime;
  readonly #timeZone: string;
  readonly #names = new Set<string>();
  readonly #central: Buffer[] = [];
  #centralSize = 0;
  #offset = 0;
  #finished = false;

  constructor(options: IStoredZipOptions) {
    this.#timeZone = options.timeZone ?? 'UTC';
    this.#defaultTime = dosDateTime(options.modifiedAt, this.#timeZone);
  }

  add(entry: IZipEntry): [Buffer, Uint8Array] {
    if (this.#finished) throw new Error('zip: add after finish');
    const { name, data } = entry;
    if (!isSafeFileName(name, ''))
      throw new Error(`zip: unsafe entry name ${JSON.stringify(name)}`);
    if (this.#names.has(name)) throw new Error(`zip: duplicate entry name ${name}`);
    if (this.#names.size >= MAX_ENTRIES) throw new Error('zip: too many entries');
    if (data.byteLength > MAX_UINT32 || this.#offset > MAX_UINT32) {
      throw new Error('zip: archive too large without ZIP64');
    }
    this.#names.add(name);

    const nameBytes = Buffer.from(name, 'utf8');
    const { date, time } = entry.modifiedAt
      ? dosDateTime(entry.modifiedAt, this.#timeZone)
      : this.#defaultTime;
    const crc = crc32(data);
    const size = data.byteLength;

    const local = Buffer.allocUnsafe(LOCAL_HEADER_SIZE + nameBytes.length);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(VERSION_NEEDED, 4);
    local.writeUInt16LE(FLAG_UTF8_NAME, 6);
    local.writeUInt16LE(METHOD_STORED, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(size, 18); // compressed size: stored, so the same
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28); // no extra field
    nameBytes.copy(local, LOCAL_HEADER_SIZE);

    const central = Buffer.allocUnsafe(CENTRAL_HEADER_SIZE + nameBytes.length);
    central.writeUInt32LE(CENTRAL_HEADER, 0);
    central.writeUInt16LE(VERSION_MADE_BY, 4);
    central.writeUInt16LE(VERSION_NEEDED, 6);
    central.writeUInt16LE(FLAG_UTF8_NAME, 8);
    central.writeUInt16LE(METHOD_STORED, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(size, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt16LE(0, 30); // extra field length
    central.writeUInt16LE(0, 32); // comment length
    central.writeUInt16LE(0, 34); // disk number
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE(REGULAR_FILE_RW_R_R, 38);
    central.writeUInt32LE(this.#offset, 42);
    nameBytes.copy(central, CENTRAL_HEADER_SIZE);
    this.#central.push(central);
    this.#centralSize += central.length;

    this.#offset += local.length + size;
    return [local, data];
  }

  finish(): Buffer {
    if (this.#finished) throw new Error('zip: finish called twice');
    this.#finished = true;
    if (this.#offset > MAX_UINT32 || this.#centralSize > MAX_UINT32) {
      throw new Error('zip: archive too large without ZIP64');
    }
    const end = Buffer.alloc(END_SIZE);
    end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
    // Disk numbers at 4 and 6 stay 0; the comment length at 20 stays 0.
    end.writeUInt16LE(this.#central.length, 8);
    end.writeUInt16LE(this.#central.length, 10);
    end.writeUInt32LE(this.#centralSize, 12);
    end.writeUInt32LE(this.#offset, 16);
    return Buffer.concat([...this.#central, end]);
  }
}

/** Gathers small pieces into chunks of about CHUNK_SIZE; large pieces pass through uncopied. */
class Chunker {
  #pending: Uint8Array[] = [];
  #pendingSize = 0;

  /** Chunks ready to send after adding `piece`. */
  push(piece: Uint8Array): Uint8Array[] {
    if (piece.byteLength >= CHUNK_SIZE / 4) return [...this.flush(), piece];
    this.#pending.push(piece);
    this.#pendingSize += piece.byteLength;
    return this.#pendingSize >= CHUNK_SIZE ? this.flush() : [];
  }

  flush(): Uint8Array[] {
    if (this.#pendingSize === 0) return [];
    const pending = this.#pending;
    const chunk = pending.length === 1 ? pending[0]! : Buffer.concat(pending, this.#pendingSize);
    this.#pending = [];
    this.#pendingSize = 0;
    return [chunk];
  }
}

/** The archive's bytes, chunk by chunk, for entries that are all at hand. */
export function* storedZipChunks(
  entries: Iterable<IZipEntry>,
  options: IStoredZipOptions,
): Generator<Uint8Array> {
  const writer = new StoredZipWriter(options);
  const chunker = new Chunker();
  for (const entry of entries) {
    for (const piece of writer.add(entry)) yield* chunker.push(piece);
  }
  yield* chunker.push(writer.finish());
  yield* chunker.flush();
}

/** The archive's bytes for entries that arrive one by one (a database cursor, say). */
export async function* storedZipChunksFrom(
  entries: AsyncIterable<IZipEntry>,
  options: IStoredZipOptions,
): AsyncGenerator<Uint8Array> {
  const writer = new StoredZipWriter(options);
  const chunker = new Chunker();
  for await (const entry of entries) {
    for (const piece of writer.add(entry)) yield* chunker.push(piece);
  }
  yield* chunker.push(writer.finish());
  yield* chunker.flush();
}

function isAsyncIterable<T>(value: Iterable<T> | AsyncIterable<T>): value is AsyncIterable<T> {
  return Symbol.asyncIterator in value;
}

/**
 * A byte stream of the archive, ready for `reply.send()` or `pipeline()`. An invalid entry
 * destroys the stream with the error; check names and data before the first byte is sent.
 */
export function createStoredZip(
  entries: Iterable<IZipEntry> | AsyncIterable<IZipEntry>,
  options: IStoredZipOptions,
): Readable {
  const chunks = isAsyncIterable(entries)
    ? storedZipChunksFrom(entries, options)
    : storedZipChunks(entries, options);
  return Readable.from(chunks, { objectMode: false, highWaterMark: CHUNK_SIZE });
}
