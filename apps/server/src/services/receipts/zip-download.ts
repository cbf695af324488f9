/**
 * What both zip downloads share: the response headers of a finished archive and the PDF check.
 * Everything is validated before the stream is made, so a refusal is still a clean 400.
 */
import type { Readable } from 'node:stream';
import { createStoredZip, storedZipSize, type IZipEntry } from '../../lib/zip/stored-zip.ts';

/** A zip ready to send: the stream and what the response headers need. */
export interface IZipDownload {
  fileName: string;
  /** Exact size of the stream's bytes. */
  byteLength: number;
  headers: { 'content-type': string; 'content-disposition': string; 'content-length': string };
  /** The entries' names in archive order. */
  entryNames: string[];
  stream: Readable;
}

/** Whether the bytes start with '%PDF-', as every PDF file does. */
export function isPdf(data: Uint8Array): boolean {
  return (
    data[0] === 0x25 && data[1] === 0x50 && data[2] === 0x44 && data[3] === 0x46 && data[4] === 0x2d
  );
}

/** Builds the download for already validated entries; the stream has not produced a byte yet. */
export function zipDownload(
  fileName: string,
  entries: IZipEntry[],
  modifiedAt: Date,
  timeZone: string,
): IZipDownload {
  const byteLength = storedZipSize(entries);
  return {
    fileName,
    byteLength,
    headers: {
      'content-type': 'application/zip',
      'content-disposition': `attachment; filename="${fileName}"`,
      'content-length': String(byteLength),
    },
    entryNames: entries.map((entry) => entry.name),
    stream: createStoredZip(entries, { modifiedAt, timeZone }),
  };
}
