/**
 * Writes a one-page PDF 1.7 file meant to conform to PDF/UA-1 and PDF/A-2u (decision 039):
 * catalog with /Lang, /MarkInfo, /ViewerPreferences /DisplayDocTitle and XMP metadata; page tree
 * and page; the page's structure tree; the fonts it uses, embedded as subsets with ToUnicode
 * maps; the content stream; the document information and an exact cross-reference table.
 * No clock and no randomness: the same page and info give the same bytes.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { FONTS, type TPdfFont } from './font-metrics.ts';
import { winAnsiToUnicode } from './win-ansi.ts';
import {
  FONT_RESOURCES,
  escapePdfString,
  pdfNumber,
  type IStructElement,
  type PdfPage,
} from './pdf-page.ts';

export interface IPdfInfo {
  title: string;
  /** The document's natural language (BCP 47), the catalog's /Lang; default 'en-US'. */
  lang?: string;
  producer: string;
  /** Written as the document's CreationDate, in UTC. */
  creationDate: Date;
}

export interface IWritePdfOptions {
  /** Flate-compress the content stream (default true); off makes the stream readable as text. */
  compress?: boolean;
}

/** A '%' comment line of four bytes above 0x7F marks the file as binary for transfer tools. */
const HEADER = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';

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

/** Escapes text for XML character data and attribute values. */
function xmlText(text: string): string {
  return text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The XMP packet (ISO 16684-1) PDF/A-2 and PDF/UA-1 read their claims from. It repeats the
 * information dictionary (PDF/A-2 §6.6.2.3.2: both must agree) and describes the pdfuaid schema,
 * which PDF/A does not predefine, in a pdfaExtension block (§6.6.2.3.3).
 */
function xmpPacket(info: IPdfInfo): Buffer {
  const created = info.creationDate.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const xml =
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>\n' +
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n' +
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n' +
    '<rdf:Description rdf:about=""\n' +
    ' xmlns:dc="http://purl.org/dc/elements/1.1/"\n' +
    ' xmlns:xmp="http://ns.adobe.com/xap/1.0/"\n' +
    ' xmlns:pdf="http://ns.adobe.com/pdf/1.3/"\n' +
    ' xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"\n' +
    ' xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/"\n' +
    ' xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"\n' +
    ' xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#"\n' +
    ' xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">\n' +
    '<dc:format>application/pdf</dc:format>\n' +
    `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(info.title)}</rdf:li></rdf:Alt></dc:title>\n` +
    `<xmp:CreateDate>${created}</xmp:CreateDate>\n` +
    `<pdf:Producer>${xmlText(info.producer)}</pdf:Producer>\n` +
    '<pdfaid:part>2</pdfaid:part>\n<pdfaid:conformance>U</pdfaid:conformance>\n' +
    '<pdfuaid:part>1</pdfuaid:part>\n' +
    '<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">\n' +
    '<pdfaSchema:schema>PDF/UA identification schema</pdfaSchema:schema>\n' +
    '<pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>\n' +
    '<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>\n' +
    '<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource">\n' +
    '<pdfaProperty:name>part</pdfaProperty:name>\n' +
    '<pdfaProperty:valueType>Integer</pdfaProperty:valueType>\n' +
    '<pdfaProperty:category>internal</pdfaProperty:category>\n' +
    '<pdfaProperty:description>The part of ISO 14289 the file conforms to</pdfaProperty:description>\n' +
    '</rdf:li></rdf:Seq></pdfaSchema:property>\n' +
    '</rdf:li></rdf:Bag></pdfaExtension:schemas>\n' +
    '</rdf:Description>\n</rdf:RDF>\n</x:xmpmeta>\n<?xpacket end="w"?>';
  return Buffer.from(xml, 'utf8');
}

/**
 * sRGB as a CIE-based colour space (D65 white point, gamma 2.2, the sRGB primaries' matrix):
 * device-independent colour, so PDF/A needs no output intent and no ICC profile in the file.
 */
const CAL_RGB =
  '[/CalRGB << /WhitePoint [0.9505 1 1.089] /Gamma [2.2 2.2 2.2] ' +
  '/Matrix [0.4124 0.2126 0.0193 0.3576 0.7152 0.1192 0.1805 0.0722 0.9505] >>]';

interface IStream {
  /** Dictionary entries besides /Length. */
  entries: string;
  data: Buffer;
}

interface IFontSubset {
  /** Six capital letters + '+' + PostScript name (PDF 1.7 §9.6.4). */
  baseFont: string;
  fontFile: IStream;
  toUnicode: IStream;
}

/**
 * The characters every subset holds besides what the page drew: printable ASCII and WinAnsi's
 * punctuation block (0x80–0x9F: curly quotes, dashes, the euro sign, …), all a receipt's own
 * words use. So nearly every receipt embeds the same two font programs, which storage keeps once
 * (decision 066); only a name or address with accented letters makes a program of its own.
 */
const SHARED_CODES = (() => {
  const codes = new Uint8Array(256);
  for (let byte = 0x20; byte <= 0x9f; byte++) {
    if (winAnsiToUnicode(byte) !== undefined) codes[byte] = 1;
  }
  return codes;
})();

/** The codes drawn that the shared set lacks, as a string: '' for nearly every receipt. */
function extraCodes(drawn: Uint8Array): string {
  let extra = '';
  for (let byte = 0; byte < 256; byte++) {
    if (drawn[byte] && !SHARED_CODES[byte]) extra += String.fromCharCode(byte);
  }
  return extra;
}

/** Subsets by font and the extra codes they hold: receipts mostly have none. */
const subsets = new Map<string, IFontSubset>();
const SUBSET_CACHE_SIZE = 256;

function fontSubset(font: TPdfFont, drawn: Uint8Array): IFontSubset {
  const extra = extraCodes(drawn);
  const key = `${font}:${extra}`;
  const cached = subsets.get(key);
  if (cached) return cached;
  const used = Uint8Array.from(SHARED_CODES);
  for (let i = 0; i < extra.length; i++) used[extra.charCodeAt(i)] = 1;
  const embedded = FONTS[font];
  const glyphs: number[] = [];
  let cmap = '';
  let entries = 0;
  for (let byte = 0x20; byte <= 0xff; byte++) {
    if (!used[byte]) continue;
    glyphs.push(embedded.glyphs[byte - 0x20]!);
    const unicode = winAnsiToUnicode(byte) ?? 0xfffd;
    cmap += `<${byte.toString(16).padStart(2, '0')}> <${unicode.toString(16).padStart(4, '0')}>\n`;
    entries++;
  }
  const program = embedded.program.subset(glyphs);
  // The tag is derived from the subset itself, so the same subset always gets the same name.
  const digest = createHash('md5').update(key).digest();
  let tag = '';
  for (let i = 0; i < 6; i++) tag += String.fromCharCode(65 + (digest[i]! % 26));
  const toUnicode =
    '/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n' +
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n' +
    '/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n' +
    '1 begincodespacerange\n<00> <FF>\nendcodespacerange\n' +
    // bfchar blocks hold at most 100 entries (Adobe TN 5411); WinAnsi text uses at most 219.
    chunkBfchar(cmap, entries) +
    'endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n';
  const subset: IFontSubset = {
    baseFont: `${tag}+${embedded.program.postScriptName}`,
    fontFile: {
      entries: `/Filter /FlateDecode /Length1 ${program.length}`,
      data: deflateSync(program),
    },
    toUnicode: {
      entries: '/Filter /FlateDecode',
      data: deflateSync(Buffer.from(toUnicode, 'latin1')),
    },
  };
  if (subsets.size >= SUBSET_CACHE_SIZE) subsets.clear();
  subsets.set(key, subset);
  return subset;
}

/**
 * The font program `writePdf` embeds for a page that drew nothing outside the shared codes in
 * `font`, as the stream's bytes (deflated): the part most receipts share.
 */
export function sharedFontProgram(font: TPdfFont): Buffer {
  return fontSubset(font, new Uint8Array(256)).fontFile.data;
}

function chunkBfchar(lines: string, count: number): string {
  const all = lines.split('\n').slice(0, count);
  let out = '';
  for (let i = 0; i < all.length; i += 100) {
    const block = all.slice(i, i + 100);
    out += `${block.length} beginbfchar\n${block.join('\n')}\nendbfchar\n`;
  }
  return out;
}

const widthsArrays = new Map<TPdfFont, string>();

function widthsArray(font: TPdfFont): string {
  let written = widthsArrays.get(font);
  if (written === undefined) {
    written = `[${FONTS[font].widths.join(' ')}]`;
    widthsArrays.set(font, written);
  }
  return written;
}

function fontDescriptor(font: TPdfFont, baseFont: string, fontFile: number): string {
  const program = FONTS[font].program;
  const scale = (units: number) => Math.round((units * 1000) / program.unitsPerEm);
  const [xMin, yMin, xMax, yMax] = program.bbox;
  return (
    `<< /Type /FontDescriptor /FontName /${baseFont} /Flags 32 ` +
    `/FontBBox [${scale(xMin)} ${scale(yMin)} ${scale(xMax)} ${scale(yMax)}] ` +
    `/ItalicAngle ${program.italicAngle} /Ascent ${scale(program.ascent)} ` +
    `/Descent ${scale(program.descent)} /CapHeight ${scale(program.capHeight)} ` +
    `/StemV ${font === 'Sans-Bold' ? 140 : 80} /FontFile2 ${fontFile} 0 R >>`
  );
}

/** A written PDF, and where in it the embedded font programs' bytes are (stream data only). */
export interface IWrittenPdf {
  pdf: Buffer;
  fontPrograms: { start: number; length: number }[];
}

export function writePdf(page: PdfPage, info: IPdfInfo, options: IWritePdfOptions = {}): Buffer {
  return writePdfParts(page, info, options).pdf;
}

export function writePdfParts(
  page: PdfPage,
  info: IPdfInfo,
  options: IWritePdfOptions = {},
): IWrittenPdf {
  const compress = options.compress ?? true;
  const raw = Buffer.from(page.content(), 'latin1');
  // A page's content is a few kilobytes: a small window and the fastest level compress it
  // almost as well as the defaults, in a fraction of the time and memory (the billing run
  // makes a receipt per payment).
  const content: IStream = compress
    ? { entries: '/Filter /FlateDecode', data: deflateSync(raw, { level: 1, windowBits: 12 }) }
    : { entries: '', data: raw };
  const infoBody =
    `<< /Title ${pdfTextString(info.title)} /Producer ${pdfTextString(info.producer)} ` +
    `/CreationDate (${pdfDate(info.creationDate)}) >>`;

  const objects: (string | IStream)[] = [];
  /** Reserves the next object number; its body is set later with `objects[n - 1] = …`. */
  const reserve = () => objects.push('') as number;
  const CATALOG = reserve();
  const PAGES = reserve();
  const PAGE = reserve();
  const CONTENT = reserve();
  const INFO = reserve();
  const METADATA = reserve();
  const STRUCT_ROOT = reserve();
  const PARENT_TREE = reserve();

  // The structure tree: one object per element, numbered in reading order.
  const byMcid: number[] = [];
  const addElement = (element: IStructElement, parent: number): number => {
    const number = reserve();
    let body = `<< /Type /StructElem /S /${element.tag} /P ${parent} 0 R`;
    if (element.scope) body += ` /A << /O /Table /Scope /${element.scope} >>`;
    if (element.mcid !== undefined) {
      byMcid[element.mcid] = number;
      body += ` /Pg ${PAGE} 0 R /K ${element.mcid} >>`;
    } else {
      const kids = element.children.map((child) => `${addElement(child, number)} 0 R`);
      body += ` /K [${kids.join(' ')}] >>`;
    }
    objects[number - 1] = body;
    return number;
  };
  const documentElement = addElement(page.structure, STRUCT_ROOT);
  objects[STRUCT_ROOT - 1] =
    `<< /Type /StructTreeRoot /K [${documentElement} 0 R] /ParentTree ${PARENT_TREE} 0 R ` +
    '/ParentTreeNextKey 1 >>';
  objects[PARENT_TREE - 1] = `<< /Nums [0 [${byMcid.map((n) => `${n} 0 R`).join(' ')}]] >>`;

  // Only the fonts the page drew with, each as the subset of what it drew (and ASCII).
  const fontRefs: string[] = [];
  const programObjects = new Set<number>();
  for (const font of Object.keys(FONT_RESOURCES) as TPdfFont[]) {
    const used = page.used[font];
    if (!used.includes(1)) continue;
    const subset = fontSubset(font, used);
    const dict = reserve();
    const descriptor = reserve();
    const file = reserve();
    const toUnicode = reserve();
    objects[dict - 1] =
      `<< /Type /Font /Subtype /TrueType /BaseFont /${subset.baseFont} /FirstChar 32 ` +
      `/LastChar 255 /Widths ${widthsArray(font)} /Encoding /WinAnsiEncoding ` +
      `/FontDescriptor ${descriptor} 0 R /ToUnicode ${toUnicode} 0 R >>`;
    objects[descriptor - 1] = fontDescriptor(font, subset.baseFont, file);
    objects[file - 1] = subset.fontFile;
    programObjects.add(file);
    objects[toUnicode - 1] = subset.toUnicode;
    fontRefs.push(`/${FONT_RESOURCES[font]} ${dict} 0 R`);
  }

  objects[CATALOG - 1] =
    `<< /Type /Catalog /Pages ${PAGES} 0 R /Lang ${pdfTextString(info.lang ?? 'en-US')} ` +
    `/MarkInfo << /Marked true >> /StructTreeRoot ${STRUCT_ROOT} 0 R ` +
    `/ViewerPreferences << /DisplayDocTitle true >> /Metadata ${METADATA} 0 R >>`;
  objects[PAGES - 1] = `<< /Type /Pages /Kids [${PAGE} 0 R] /Count 1 >>`;
  objects[PAGE - 1] =
    `<< /Type /Page /Parent ${PAGES} 0 R ` +
    `/MediaBox [0 0 ${pdfNumber(page.width)} ${pdfNumber(page.height)}] ` +
    `/Resources << /Font << ${fontRefs.join(' ')} >> /ColorSpace << /CS0 ${CAL_RGB} >> >> ` +
    `/Contents ${CONTENT} 0 R /StructParents 0 /Tabs /S >>`;
  objects[CONTENT - 1] = content;
  objects[INFO - 1] = infoBody;
  // Uncompressed, so tools that look for the packet by scanning the file find it.
  objects[METADATA - 1] = { entries: '/Type /Metadata /Subtype /XML', data: xmpPacket(info) };

  // Dictionaries are latin1 text, one char per byte: runs of them are joined as one string and
  // turned into bytes once (a receipt has some 90 objects), offsets counted in chars.
  const chunks: Buffer[] = [];
  const offsets: number[] = [];
  const fontPrograms: IWrittenPdf['fontPrograms'] = [];
  let text = HEADER;
  let offset = 0;
  const flush = () => {
    chunks.push(Buffer.from(text, 'latin1'));
    offset += text.length;
    text = '';
  };
  objects.forEach((body, index) => {
    offsets.push(offset + text.length);
    const number = index + 1;
    if (typeof body === 'string') {
      text += `${number} 0 obj\n${body}\nendobj\n`;
    } else {
      const entries = body.entries === '' ? '' : ` ${body.entries}`;
      text += `${number} 0 obj\n<< /Length ${body.data.length}${entries} >>\nstream\n`;
      flush();
      if (programObjects.has(number))
        fontPrograms.push({ start: offset, length: body.data.length });
      chunks.push(body.data);
      offset += body.data.length;
      text = '\nendstream\nendobj\n';
    }
  });

  // The file identifier is a digest of what the file says (its content as stored, which is
  // smaller than inflated), so it too is deterministic.
  const id = createHash('md5').update(content.data).update(infoBody).digest('hex').toUpperCase();
  const xrefOffset = offset + text.length;
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) tail += `${String(at).padStart(10, '0')} 00000 n \n`;
  tail +=
    `trailer\n<< /Size ${objects.length + 1} /Root ${CATALOG} 0 R /Info ${INFO} 0 R ` +
    `/ID [<${id}> <${id}>] >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  text += tail;
  flush();
  return { pdf: Buffer.concat(chunks, offset), fontPrograms };
}
