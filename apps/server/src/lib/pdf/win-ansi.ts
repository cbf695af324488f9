/**
 * WinAnsiEncoding (PDF 1.4 Appendix D): the one-byte encoding of the standard fonts as we use
 * them. Text is turned into a "byte string" (one char per byte, codes 0–255) so content streams
 * can be built as plain strings and written with Buffer.from(…, 'latin1').
 */

/** 0x80–0x9F differ from Latin-1; the rest of 0xA0–0xFF is Latin-1 itself. */
const HIGH_CODES: ReadonlyArray<readonly [number, number]> = [
  [0x20ac, 0x80], // €
  [0x201a, 0x82], // ‚
  [0x0192, 0x83], // ƒ
  [0x201e, 0x84], // „
  [0x2026, 0x85], // …
  [0x2020, 0x86], // †
  [0x2021, 0x87], // ‡
  [0x02c6, 0x88], // ˆ
  [0x2030, 0x89], // ‰
  [0x0160, 0x8a], // Š
  [0x2039, 0x8b], // ‹
  [0x0152, 0x8c], // Œ
  [0x017d, 0x8e], // Ž
  [0x2018, 0x91], // ‘
  [0x2019, 0x92], // ’
  [0x201c, 0x93], // “
  [0x201d, 0x94], // ”
  [0x2022, 0x95], // •
  [0x2013, 0x96], // –
  [0x2014, 0x97], // —
  [0x02dc, 0x98], // ˜
  [0x2122, 0x99], // ™
  [0x0161, 0x9a], // š
  [0x203a, 0x9b], // ›
  [0x0153, 0x9c], // œ
  [0x017e, 0x9e], // ž
  [0x0178, 0x9f], // Ÿ
];
const FROM_UNICODE = new Map<number, number>(HIGH_CODES);

/** What a character WinAnsi cannot show becomes. */
export const REPLACEMENT_BYTE = 0x3f; // '?'

/** The WinAnsi byte for one Unicode code point: space for controls, '?' when not encodable. */
export function winAnsiByte(codePoint: number): number {
  if (codePoint >= 0x20 && codePoint <= 0x7e) return codePoint;
  if (codePoint < 0x20 || codePoint === 0x7f) return 0x20;
  if (codePoint >= 0xa0 && codePoint <= 0xff) return codePoint;
  return FROM_UNICODE.get(codePoint) ?? REPLACEMENT_BYTE;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Text as WinAnsi bytes, one char per byte. Decomposed accents are composed first (NFC). */
export function toWinAnsi(text: string): string {
  if (PRINTABLE_ASCII.test(text)) return text;
  let bytes = '';
  for (const char of text.normalize('NFC')) {
    bytes += String.fromCharCode(winAnsiByte(char.codePointAt(0) ?? REPLACEMENT_BYTE));
  }
  return bytes;
}

const TO_UNICODE = new Map<number, number>(HIGH_CODES.map(([unicode, byte]) => [byte, unicode]));

/**
 * The Unicode code point a WinAnsi byte stands for, undefined for the five codes WinAnsi leaves
 * unassigned (toWinAnsi never writes them). Used for the embedded fonts' widths and ToUnicode.
 */
export function winAnsiToUnicode(byte: number): number | undefined {
  if (byte >= 0x20 && byte <= 0x7e) return byte;
  if (byte >= 0xa0 && byte <= 0xff) return byte;
  return TO_UNICODE.get(byte);
}
