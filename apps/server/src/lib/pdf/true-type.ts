/**
 * A TrueType font read once from the bytes we ship (fonts/, decision 039) and cut down to the
 * glyphs one document uses. The subset keeps every glyph id (unused glyphs become empty), so the
 * font's own cmap, hmtx and hinting programs stay valid untouched: only glyf and loca are
 * rebuilt. Composite glyphs (accented letters) bring their components along.
 */
import { readFileSync } from 'node:fs';

interface ITable {
  offset: number;
  length: number;
}

/**
 * Tables a PDF viewer needs to draw a TrueType font program (PDF 1.7 §9.9); the rest is dropped.
 * So are the hinting programs (cvt, fpgm, prep and each glyph's instructions): they are most of
 * Liberation's bytes, and readers draw receipts well without them (decision 039).
 */
const KEPT_TABLES = [
  'OS/2',
  'cmap',
  'glyf',
  'head',
  'hhea',
  'hmtx',
  'loca',
  'maxp',
  'name',
  'post',
];

// Composite glyph flags (OpenType 'glyf').
const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;
const WE_HAVE_INSTRUCTIONS = 0x0100;

export class TrueTypeFont {
  readonly postScriptName: string;
  readonly unitsPerEm: number;
  readonly bbox: readonly [number, number, number, number];
  readonly ascent: number;
  readonly descent: number;
  readonly capHeight: number;
  readonly italicAngle: number;
  readonly #data: Buffer;
  readonly #tables = new Map<string, ITable>();
  readonly #glyphStarts: number[] = [];
  readonly #advances: number[] = [];
  readonly #cmap = new Map<number, number>();

  constructor(data: Buffer) {
    this.#data = data;
    const count = data.readUInt16BE(4);
    for (let i = 0; i < count; i++) {
      const at = 12 + i * 16;
      this.#tables.set(data.toString('latin1', at, at + 4), {
        offset: data.readUInt32BE(at + 8),
        length: data.readUInt32BE(at + 12),
      });
    }
    const head = this.#table('head');
    this.unitsPerEm = data.readUInt16BE(head.offset + 18);
    this.bbox = [
      data.readInt16BE(head.offset + 36),
      data.readInt16BE(head.offset + 38),
      data.readInt16BE(head.offset + 40),
      data.readInt16BE(head.offset + 42),
    ];
    const longLoca = data.readInt16BE(head.offset + 50) === 1;
    const glyphCount = data.readUInt16BE(this.#table('maxp').offset + 4);
    const loca = this.#table('loca');
    for (let i = 0; i <= glyphCount; i++) {
      this.#glyphStarts.push(
        longLoca
          ? data.readUInt32BE(loca.offset + i * 4)
          : data.readUInt16BE(loca.offset + i * 2) * 2,
      );
    }
    const hhea = this.#table('hhea');
    this.ascent = data.readInt16BE(hhea.offset + 4);
    this.descent = data.readInt16BE(hhea.offset + 6);
    const metricCount = data.readUInt16BE(hhea.offset + 34);
    const hmtx = this.#table('hmtx');
    for (let i = 0; i < glyphCount; i++) {
      this.#advances.push(data.readUInt16BE(hmtx.offset + Math.min(i, metricCount - 1) * 4));
    }
    const os2 = this.#tables.get('OS/2');
    this.capHeight =
      os2 && data.readUInt16BE(os2.offset) >= 2 ? data.readInt16BE(os2.offset + 88) : this.ascent;
    const post = this.#table('post');
    this.italicAngle = data.readInt32BE(post.offset + 4) / 65536;
    this.postScriptName = this.#readPostScriptName();
    this.#readUnicodeCmap();
  }

  static fromFile(path: URL): TrueTypeFont {
    return new TrueTypeFont(readFileSync(path));
  }

  #table(tag: string): ITable {
    const table = this.#tables.get(tag);
    if (!table) throw new Error(`font has no '${tag}' table`);
    return table;
  }

  #readPostScriptName(): string {
    const name = this.#table('name');
    const data = this.#data;
    const count = data.readUInt16BE(name.offset + 2);
    const strings = name.offset + data.readUInt16BE(name.offset + 4);
    for (let i = 0; i < count; i++) {
      const at = name.offset + 6 + i * 12;
      if (data.readUInt16BE(at + 6) !== 6) continue; // name id 6: PostScript name
      const platform = data.readUInt16BE(at);
      const start = strings + data.readUInt16BE(at + 10);
      const bytes = data.subarray(start, start + data.readUInt16BE(at + 8));
      return platform === 3
        ? Buffer.from(bytes).swap16().toString('utf16le')
        : bytes.toString('latin1');
    }
    throw new Error('font has no PostScript name');
  }

  /** The (3,1) Unicode BMP cmap, format 4: the one a non-symbolic TrueType font in a PDF uses. */
  #readUnicodeCmap(): void {
    const cmap = this.#table('cmap');
    const data = this.#data;
    const count = data.readUInt16BE(cmap.offset + 2);
    for (let i = 0; i < count; i++) {
      const at = cmap.offset + 4 + i * 8;
      if (data.readUInt16BE(at) !== 3 || data.readUInt16BE(at + 2) !== 1) continue;
      const sub = cmap.offset + data.readUInt32BE(at + 4);
      if (data.readUInt16BE(sub) !== 4) continue;
      const segments = data.readUInt16BE(sub + 6) / 2;
      const ends = sub + 14;
      const starts = ends + segments * 2 + 2;
      const deltas = starts + segments * 2;
      const rangeOffsets = deltas + segments * 2;
      for (let s = 0; s < segments; s++) {
        const end = data.readUInt16BE(ends + s * 2);
        const start = data.readUInt16BE(starts + s * 2);
        const delta = data.readInt16BE(deltas + s * 2);
        const rangeOffset = data.readUInt16BE(rangeOffsets + s * 2);
        for (let code = start; code <= end && code !== 0xffff; code++) {
          let glyph: number;
          if (rangeOffset === 0) glyph = (code + delta) & 0xffff;
          else {
            const g = data.readUInt16BE(rangeOffsets + s * 2 + rangeOffset + (code - start) * 2);
            glyph = g === 0 ? 0 : (g + delta) & 0xffff;
          }
          if (glyph !== 0) this.#cmap.set(code, glyph);
        }
      }
      return;
    }
    throw new Error('font has no (3,1) format 4 cmap');
  }

  /** The glyph id of a Unicode code point, 0 (.notdef) when the font has none. */
  glyphOf(codePoint: number): number {
    return this.#cmap.get(codePoint) ?? 0;
  }

  /** A glyph's advance width in font units. */
  advance(glyph: number): number {
    return this.#advances[glyph] ?? 0;
  }

  #glyph(glyph: number): Buffer {
    return this.#data.subarray(
      this.#table('glyf').offset + this.#glyphStarts[glyph]!,
      this.#table('glyf').offset + this.#glyphStarts[glyph + 1]!,
    );
  }

  /** The glyphs and, for composites, the components they are drawn from (and theirs). */
  #closure(glyphs: Iterable<number>): Set<number> {
    const all = new Set<number>([0]);
    const pending = [...glyphs];
    while (pending.length > 0) {
      const glyph = pending.pop()!;
      if (all.has(glyph) && glyph !== 0) continue;
      all.add(glyph);
      const body = this.#glyph(glyph);
      if (body.length < 10 || body.readInt16BE(0) >= 0) continue; // empty or simple
      for (const component of composite(body).components) {
        if (!all.has(component)) pending.push(component);
      }
    }
    return all;
  }

  /** A font program with only `glyphs` (and .notdef and components) drawn; glyph ids unchanged. */
  subset(glyphs: Iterable<number>): Buffer {
    const kept = this.#closure(glyphs);
    const glyphCount = this.#glyphStarts.length - 1;
    const bodies: Buffer[] = [];
    const loca = Buffer.alloc((glyphCount + 1) * 4);
    let size = 0;
    for (let glyph = 0; glyph < glyphCount; glyph++) {
      loca.writeUInt32BE(size, glyph * 4);
      if (!kept.has(glyph)) continue;
      const body = withoutInstructions(this.#glyph(glyph));
      bodies.push(body);
      size += body.length;
      if (size % 4 !== 0) {
        // Glyphs start on four-byte boundaries so any loca format could address them.
        const pad = 4 - (size % 4);
        bodies.push(Buffer.alloc(pad));
        size += pad;
      }
    }
    loca.writeUInt32BE(size, glyphCount * 4);
    const replaced = new Map<string, Buffer>([
      ['glyf', Buffer.concat(bodies, size)],
      ['loca', loca],
    ]);
    const head = Buffer.from(this.#slice('head'));
    head.writeUInt32BE(0, 8); // checkSumAdjustment, set below
    head.writeInt16BE(1, 50); // indexToLocFormat: long offsets
    replaced.set('head', head);
    // Glyph names are not needed to draw (the PDF maps codes through cmap): post version 3
    // keeps the 32-byte header and drops a fifth of the program.
    const post = Buffer.from(this.#slice('post').subarray(0, 32));
    post.writeUInt32BE(0x00030000, 0);
    replaced.set('post', post);
    return this.#assemble(replaced);
  }

  #slice(tag: string): Buffer {
    const table = this.#table(tag);
    return this.#data.subarray(table.offset, table.offset + table.length);
  }

  #assemble(replaced: Map<string, Buffer>): Buffer {
    const tags = KEPT_TABLES.filter((tag) => this.#tables.has(tag));
    const bodies = tags.map((tag) => replaced.get(tag) ?? this.#slice(tag));
    const headerLength = 12 + tags.length * 16;
    let length = headerLength;
    for (const body of bodies) length += Math.ceil(body.length / 4) * 4;
    const out = Buffer.alloc(length);
    out.writeUInt32BE(0x00010000, 0);
    out.writeUInt16BE(tags.length, 4);
    const power = 2 ** Math.floor(Math.log2(tags.length));
    out.writeUInt16BE(power * 16, 6);
    out.writeUInt16BE(Math.log2(power), 8);
    out.writeUInt16BE(tags.length * 16 - power * 16, 10);
    let at = headerLength;
    let headAt = 0;
    tags.forEach((tag, i) => {
      const body = bodies[i]!;
      body.copy(out, at);
      const record = 12 + i * 16;
      out.write(tag, record, 'latin1');
      out.writeUInt32BE(checksum(out, at, body.length), record + 4);
      out.writeUInt32BE(at, record + 8);
      out.writeUInt32BE(body.length, record + 12);
      if (tag === 'head') headAt = at;
      at += Math.ceil(body.length / 4) * 4;
    });
    out.writeUInt32BE((0xb1b0afba - checksum(out, 0, out.length)) >>> 0, headAt + 8);
    return out;
  }
}

/** The OpenType table checksum: the sum of big-endian 32-bit words, zero-padded. */
function checksum(data: Buffer, start: number, length: number): number {
  let sum = 0;
  const end = start + Math.ceil(length / 4) * 4;
  for (let at = start; at < end; at += 4) sum = (sum + data.readUInt32BE(at)) >>> 0;
  return sum;
}

/** A composite glyph's components and where its component records end. */
function composite(body: Buffer): { components: number[]; end: number; lastFlagsAt: number[] } {
  const components: number[] = [];
  const flagsAt: number[] = [];
  let at = 10;
  for (;;) {
    const flags = body.readUInt16BE(at);
    flagsAt.push(at);
    components.push(body.readUInt16BE(at + 2));
    at += 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
    if (flags & WE_HAVE_A_SCALE) at += 2;
    else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) at += 4;
    else if (flags & WE_HAVE_A_TWO_BY_TWO) at += 8;
    if (!(flags & MORE_COMPONENTS)) break;
  }
  return { components, end: at, lastFlagsAt: flagsAt };
}

/** A glyph with its hinting instructions removed (the outline is unchanged). */
function withoutInstructions(body: Buffer): Buffer {
  if (body.length < 10) return body;
  const contours = body.readInt16BE(0);
  if (contours < 0) {
    const { end, lastFlagsAt } = composite(body);
    const out = Buffer.from(body.subarray(0, end));
    for (const at of lastFlagsAt)
      out.writeUInt16BE(out.readUInt16BE(at) & ~WE_HAVE_INSTRUCTIONS, at);
    return out;
  }
  const lengthAt = 10 + contours * 2;
  const instructions = body.readUInt16BE(lengthAt);
  if (instructions === 0) return body;
  const out = Buffer.alloc(body.length - instructions);
  body.copy(out, 0, 0, lengthAt);
  // out[lengthAt…lengthAt+1] stays 0: no instructions.
  body.copy(out, lengthAt + 2, lengthAt + 2 + instructions);
  return out;
}
