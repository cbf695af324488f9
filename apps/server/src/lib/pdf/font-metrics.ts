/**
 * The two fonts every PDF we write embeds (decision 039): Liberation Sans regular and bold,
 * shipped in fonts/ so no machine needs them installed. They are metrically compatible with
 * Helvetica/Arial. Widths are read from the fonts themselves, in 1/1000 em per WinAnsi byte
 * 0x20–0xFF, so what we measure for alignment and shortening is what the reader draws, and the
 * /Widths we declare match the font program (PDF/A-2, ISO 19005-2 §6.2.11.5).
 */
import { TrueTypeFont } from './true-type.ts';
import { toWinAnsi, winAnsiToUnicode } from './win-ansi.ts';

export type TPdfFont = 'Sans' | 'Sans-Bold';

export interface IEmbeddedFont {
  program: TrueTypeFont;
  /** Advance widths in 1/1000 em for bytes 0x20–0xFF; 0 for codes WinAnsi leaves unassigned. */
  widths: readonly number[];
  /** Glyph id per byte 0x20–0xFF (0 when the font lacks the character). */
  glyphs: readonly number[];
}

function load(file: string): IEmbeddedFont {
  const program = TrueTypeFont.fromFile(new URL(`./fonts/${file}`, import.meta.url));
  const widths: number[] = [];
  const glyphs: number[] = [];
  for (let byte = 0x20; byte <= 0xff; byte++) {
    const unicode = winAnsiToUnicode(byte);
    const glyph = unicode === undefined ? 0 : program.glyphOf(unicode);
    glyphs.push(glyph);
    widths.push(
      unicode === undefined ? 0 : Math.round((program.advance(glyph) * 1000) / program.unitsPerEm),
    );
  }
  return { program, widths, glyphs };
}

export const FONTS: Readonly<Record<TPdfFont, IEmbeddedFont>> = {
  Sans: load('LiberationSans-Regular.ttf'),
  'Sans-Bold': load('LiberationSans-Bold.ttf'),
};

/** Width in points of WinAnsi bytes (as made by toWinAnsi) set in `font` at `size`. */
export function winAnsiWidth(bytes: string, font: TPdfFont, size: number): number {
  const widths = FONTS[font].widths;
  let units = 0;
  for (let i = 0; i < bytes.length; i++) units += widths[bytes.charCodeAt(i) - 0x20] ?? 0;
  return (units * size) / 1000;
}

/** Width in points of `text` set in `font` at `size`. */
export function textWidth(text: string, font: TPdfFont, size: number): number {
  return winAnsiWidth(toWinAnsi(text), font, size);
}
