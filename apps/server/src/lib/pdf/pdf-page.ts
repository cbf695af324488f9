/**
 * One PDF page and what we draw on it: text in the two embedded fonts, straight rules and filled
 * rectangles. Coordinates are PDF points from the page's bottom-left corner. The page is tagged
 * (PDF/UA-1, decision 039): every line of text is a marked-content sequence with its own MCID
 * and a structure element (H1, P, TH, TD…) added in drawing order, which is the reading order;
 * rules and rectangles are artifacts. Colours are in the CIE-based colour space CS0 (write-pdf.ts)
 * so the file needs no output intent for PDF/A.
 */
import { winAnsiWidth, type TPdfFont } from './font-metrics.ts';
import { toWinAnsi } from './win-ansi.ts';

/** Red, green, blue from 0 to 1. */
export type TRgb = readonly [number, number, number];

export const US_LETTER = { width: 612, height: 792 } as const;
export const BLACK: TRgb = [0, 0, 0];

/** Resource names of the fonts in every page we write (write-pdf.ts declares them). */
export const FONT_RESOURCES: Readonly<Record<TPdfFont, string>> = {
  Sans: 'F1',
  'Sans-Bold': 'F2',
};

/** Structure types a line of text can be (PDF 1.7 §14.8.4). */
export type TTextTag = 'H1' | 'H2' | 'P' | 'TH' | 'TD';
/** Structure types that group other elements. */
export type TGroupTag = 'Document' | 'Table' | 'TR' | 'Div';

export interface IStructElement {
  tag: TTextTag | TGroupTag;
  /** The marked-content id of a text element's line; undefined for a group. */
  mcid?: number;
  /** A header cell's scope (PDF/UA-1 needs table headers to say what they head). */
  scope?: 'Column' | 'Row';
  children: IStructElement[];
}

export interface ITextStyle {
  font?: TPdfFont;
  size?: number;
  color?: TRgb;
  /** Which end of the text sits at x. */
  align?: 'left' | 'right' | 'center';
  /** Wider text is first set smaller, down to `minSize`, then cut to end with '…'. */
  maxWidth?: number;
  /** The smallest size wide text may shrink to (default: no shrinking). */
  minSize?: number;
  /** The line's structure element (default P). */
  tag?: TTextTag;
  /** For a TH: what it heads (default Column). */
  scope?: 'Column' | 'Row';
}

export interface IStrokeStyle {
  width?: number;
  color?: TRgb;
}

const ELLIPSIS = '\x85';

/** A number as content streams want it: at most two decimals, no exponent, no '-0'. */
export function pdfNumber(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  // Written from integer hundredths: the same digits as String(rounded / 100), without
  // formatting a fraction (a receipt writes a few hundred numbers).
  const hundredths = Math.round(value * 100);
  if (hundredths === 0) return '0';
  if (Math.abs(hundredths) >= 1e15) return String(hundredths / 100);
  const sign = hundredths < 0 ? '-' : '';
  const magnitude = Math.abs(hundredths);
  const whole = Math.floor(magnitude / 100);
  const fraction = magnitude % 100;
  if (fraction === 0) return `${sign}${whole}`;
  if (fraction % 10 === 0) return `${sign}${whole}.${fraction / 10}`;
  return `${sign}${whole}.${fraction < 10 ? '0' : ''}${fraction}`;
}

const colors = new WeakMap<TRgb, readonly [string, string]>();

/** Operators that set the fill (or stroke) colour; content() selects CS0 for both once. */
function color(rgb: TRgb, stroke = false): string {
  let written = colors.get(rgb);
  if (written === undefined) {
    const components = `${pdfNumber(rgb[0])} ${pdfNumber(rgb[1])} ${pdfNumber(rgb[2])}`;
    written = [`${components} sc`, `${components} SC`];
    colors.set(rgb, written);
  }
  return written[stroke ? 1 : 0];
}

/** A coordinate as it is written: rounded to hundredths, like pdfNumber. */
const written = (value: number) => Math.round(value * 100) / 100;

const NEEDS_ESCAPE = /[()\\\x80-\xff]/;

/**
 * WinAnsi bytes as a literal string's body: '(', ')' and '\' escaped, bytes above 0x7F as octal
 * so the content stream stays ASCII.
 */
export function escapePdfString(bytes: string): string {
  if (!NEEDS_ESCAPE.test(bytes)) return bytes;
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const code = bytes.charCodeAt(i);
    if (code === 0x28 || code === 0x29 || code === 0x5c) out += `\\${bytes[i]}`;
    else if (code > 0x7e) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += bytes[i];
  }
  return out;
}

/** Bytes cut to fit `maxWidth`, ending with '…' when anything was cut. */
function fitBytes(bytes: string, font: TPdfFont, size: number, maxWidth: number): string {
  if (winAnsiWidth(bytes, font, size) <= maxWidth) return bytes;
  let end = bytes.length;
  while (end > 0 && winAnsiWidth(bytes.slice(0, end) + ELLIPSIS, font, size) > maxWidth) end--;
  return bytes.slice(0, end).trimEnd() + ELLIPSIS;
}

/**
 * Text is written compactly: consecutive lines share one text object, and font, size and fill
 * colour are set only when they change (they persist across text objects, and the q…Q around
 * rules and rectangles restores them). Each line's Td is relative to the previous line's start.
 */
export class PdfPage {
  readonly width: number;
  readonly height: number;
  #content = '';
  #inText = false;
  #font = '';
  #fill = '';
  #lineX = 0;
  #lineY = 0;
  #mcid = 0;
  /** The structure tree's root; text elements go into the innermost open group. */
  readonly structure: IStructElement = { tag: 'Document', children: [] };
  #open: IStructElement[] = [this.structure];
  /** Which WinAnsi bytes each font drew: the embedded subsets and ToUnicode maps hold these. */
  readonly used: Readonly<Record<TPdfFont, Uint8Array>> = {
    Sans: new Uint8Array(256),
    'Sans-Bold': new Uint8Array(256),
  };

  constructor(size: { width: number; height: number } = US_LETTER) {
    this.width = size.width;
    this.height = size.height;
  }

  /** Draws one line of text with its baseline at y; returns the width drawn. */
  text(x: number, y: number, text: string, style: ITextStyle = {}): number {
    const font = style.font ?? 'Sans';
    let size = style.size ?? 10;
    let bytes = toWinAnsi(text);
    let width = winAnsiWidth(bytes, font, size);
    if (style.maxWidth !== undefined && width > style.maxWidth) {
      if (style.minSize !== undefined && style.minSize < size) {
        size = Math.max(style.minSize, Math.floor((size * style.maxWidth * 100) / width) / 100);
      }
      bytes = fitBytes(bytes, font, size, style.maxWidth);
      width = winAnsiWidth(bytes, font, size);
    }
    const left = written(
      style.align === 'right' ? x - width : style.align === 'center' ? x - width / 2 : x,
    );
    const top = written(y);
    let ops = '';
    if (!this.#inText) {
      // A text object starts with its line at the origin.
      ops = 'BT ';
      this.#inText = true;
      this.#lineX = 0;
      this.#lineY = 0;
    }
    const used = this.used[font];
    for (let i = 0; i < bytes.length; i++) used[bytes.charCodeAt(i)] = 1;
    const tag = style.tag ?? 'P';
    const mcid = this.#mcid++;
    const element: IStructElement = { tag, mcid, children: [] };
    if (tag === 'TH') element.scope = style.scope ?? 'Column';
    this.#open.at(-1)!.children.push(element);
    ops += `/${tag} <</MCID ${mcid}>> BDC `;
    const fontSet = `/${FONT_RESOURCES[font]} ${pdfNumber(size)} Tf `;
    if (fontSet !== this.#font) {
      ops += fontSet;
      this.#font = fontSet;
    }
    const fill = `${color(style.color ?? BLACK)} `;
    if (fill !== this.#fill) {
      ops += fill;
      this.#fill = fill;
    }
    this.#content +=
      `${ops}${pdfNumber(left - this.#lineX)} ${pdfNumber(top - this.#lineY)} Td ` +
      `(${escapePdfString(bytes)}) Tj EMC\n`;
    this.#lineX = left;
    this.#lineY = top;
    return width;
  }

  /** Draws what `draw` draws inside a grouping structure element (a table, a row). */
  group(tag: TGroupTag, draw: () => void): void {
    const element: IStructElement = { tag, children: [] };
    this.#open.at(-1)!.children.push(element);
    this.#open.push(element);
    try {
      draw();
    } finally {
      this.#open.pop();
    }
  }

  #endText(): void {
    if (!this.#inText) return;
    this.#content += 'ET\n';
    this.#inText = false;
  }

  /** A straight rule from (x1, y1) to (x2, y2). */
  line(x1: number, y1: number, x2: number, y2: number, style: IStrokeStyle = {}): void {
    this.#endText();
    this.#content +=
      `/Artifact BMC q ${pdfNumber(style.width ?? 0.5)} w ${color(style.color ?? BLACK, true)} ` +
      `${pdfNumber(x1)} ${pdfNumber(y1)} m ${pdfNumber(x2)} ${pdfNumber(y2)} l S Q EMC\n`;
  }

  /** A filled rectangle with its lower-left corner at (x, y). */
  fillRect(x: number, y: number, width: number, height: number, fill: TRgb): void {
    this.#endText();
    this.#content +=
      `/Artifact BMC q ${color(fill)} ${pdfNumber(x)} ${pdfNumber(y)} ` +
      `${pdfNumber(width)} ${pdfNumber(height)} re f Q EMC\n`;
  }

  /**
   * The page's content stream (ASCII). It selects CS0 for fill and stroke once, first: every q…Q
   * restores that state, so colours are then set with sc/SC alone.
   */
  content(): string {
    return `/CS0 cs /CS0 CS\n${this.#content}${this.#inText ? 'ET\n' : ''}`;
  }
}
