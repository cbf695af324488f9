/**
 * Writes a one-page PDF 1.4 file: catalog, page tree, page, the two standard fonts in
 * WinAnsiEncoding, the content stream, the document information and an exact cross-reference
 * table. No clock and no randomness: the same page and info give the same bytes.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { TPdfFont } from './font-metrics.ts';
import { FONT_RESOURCES, escapePdfString, pdfNumber, type PdfPage } from './pdf-page.ts';

export interface IPdfInfo {
  title: string;
  producer: string;
  /** Written as the document's CreationDate, in UTC. */
  creationDate: Date;
}

export interface IWritePdfOptions {
  /** Flate-compress the content stream (default true); off makes the stream readable as text. */
  compress?: boolean;
}

/** A '%' comment line of four bytes above 0x7F marks the file as binary for transfer tools. */
const HEADER = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';

/** A PDF text string: a literal for printable ASCII, UTF-16BE with its byte order mark otherwise. */
export function pdfTextString(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return `(${escapePdfString(text)})`;
  return `<FEFF${Buffer.from(text, 'utf16le').swap16().toString('hex').toUpperCase()}>`;
}

/** 'D:YYYYMMDDHHmmSSZ' (PDF 1.4 §3.8.3), read in UTC. */
export function pdfDate(instant: Date): string {
  if (Number.isNaN(instant.getTime())) throw new Error('creationDate is not a valid date');
  const iso = instant.toISOString(); // 2025-03-01T12:34:56.000Z
  return `D:${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}

const FONTS: readonly TPdfFont[] = ['Helvetica', 'Helvetica-Bold'];

function fontObject(font: TPdfFont): string {
  return `<< /Type /Font /Subtype /Type1 /BaseFont /${font} /Encoding /WinAnsiEncoding >>`;
}

export function writePdf(page: PdfPage, info: IPdfInfo, options: IWritePdfOptions = {}): Buffer {
  const compress = options.compress ?? true;
  const raw = Buffer.from(page.content(), 'latin1');
  // A page's content is a few kilobytes: a small window and the fastest level compress it
  // almost as well as the defaults, in a fraction of the time and memory (the billing run
  // makes a receipt per payment).
  const stream = compress ? deflateSync(raw, { level: 1, windowBits: 12 }) : raw;
  const infoBody =
    `<< /Title ${pdfTextString(info.title)} /Producer ${pdfTextString(info.producer)} ` +
    `/CreationDate (${pdfDate(info.creationDate)}) >>`;

  // Objects 1–3 are catalog, page tree and page; the fonts follow, then content and info.
  const fonts = FONTS.map((font, i) => `/${FONT_RESOURCES[font]} ${4 + i} 0 R`).join(' ');
  const objects: (string | Buffer)[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pdfNumber(page.width)} ${pdfNumber(page.height)}] ` +
      `/Resources << /Font << ${fonts} >> >> /Contents ${4 + FONTS.length} 0 R >>`,
    ...FONTS.map(fontObject),
    stream,
    infoBody,
  ];

  const chunks: Buffer[] = [Buffer.from(HEADER, 'latin1')];
  const offsets: number[] = [];
  let offset = chunks[0]!.length;
  const push = (chunk: Buffer) => {
    chunks.push(chunk);
    offset += chunk.length;
  };
  objects.forEach((body, index) => {
    offsets.push(offset);
    const number = index + 1;
    if (typeof body === 'string') {
      push(Buffer.from(`${number} 0 obj\n${body}\nendobj\n`, 'latin1'));
    } else {
      const filter = compress ? ' /Filter /FlateDecode' : '';
      push(
        Buffer.from(`${number} 0 obj\n<< /Length ${body.length}${filter} >>\nstream\n`, 'latin1'),
      );
      push(body);
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    }
  });

  // The file identifier is a digest of what the file says (its content as stored, which is
  // smaller than inflated), so it too is deterministic.
  const id = createHash('md5').update(stream).update(infoBody).digest('hex').toUpperCase();
  const xrefOffset = offset;
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) tail += `${String(at).padStart(10, '0')} 00000 n \n`;
  tail +=
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R ` +
    `/ID [<${id}> <${id}>] >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  push(Buffer.from(tail, 'latin1'));
  return Buffer.concat(chunks, offset);
}
