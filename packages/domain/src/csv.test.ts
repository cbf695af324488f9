import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField } from './csv.ts';

/**
 * The rules of csv.ts written out the long way (decision 030), without its shortcut for plain
 * cells: an apostrophe before every cell start a spreadsheet would run (the field's start and
 * after every , ; tab CR LF, past spaces and quotes), then quotes around a field that holds a
 * separator or a quote, its quotes doubled.
 */
function ruledField(text: string): string {
  let out = '';
  let cellStart = true;
  for (let i = 0; i < text.length; i++) {
    if (cellStart && /^[ "]*[=+\-@\t\r]/.test(text.slice(i))) out += "'";
    out += text[i];
    cellStart = [',', ';', '\t', '\r', '\n'].includes(text[i]!);
  }
  return /[",;\r\n\t]/.test(out) ? `"${out.replace(/"/g, '""')}"` : out;
}

describe('csvField', () => {
  it('writes every text as the rules say, plain cells included (property)', () => {
    const characters = fc.constantFrom(...'aZ09 .:/_'.split(''), ...'=+-@"\',;\t\r\n'.split(''));
    fc.assert(
      fc.property(fc.array(characters, { maxLength: 12 }), (chars) => {
        const text = chars.join('');
        expect(csvField(text)).toBe(ruledField(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves dates, amounts and ids as they are', () => {
    expect(csvField('2026-03-01')).toBe('2026-03-01');
    expect(csvField('138.00')).toBe('138.00');
    expect(csvField('chargeback:0b9d0c3e-3f0e-4c1b-9a1e-2b7f4c1d9e21')).toBe(
      'chargeback:0b9d0c3e-3f0e-4c1b-9a1e-2b7f4c1d9e21',
    );
    expect(csvField('')).toBe('');
    expect(csvField('-1')).toBe("'-1");
  });
});
