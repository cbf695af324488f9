/**
 * The PDF writer and the receipt, read back with poppler's own tools (pdftotext, pdfinfo): a
 * receipt is only right if a real PDF reader finds every figure on it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCurrency } from '@dealerpass/domain/money';
import { SELECTABLE_CODES } from '@dealerpass/domain/catalogue';
import { R3_PRICE_TABLE, quote } from '@dealerpass/domain/prices';
import { textWidth } from '../../src/lib/pdf/font-metrics.ts';
import { PdfPage, escapePdfString, pdfNumber } from '../../src/lib/pdf/pdf-page.ts';
import { pdfDate, pdfTextString, writePdf } from '../../src/lib/pdf/write-pdf.ts';
import { toWinAnsi } from '../../src/lib/pdf/win-ansi.ts';
import { renderReceiptPdf, type IReceipt } from '../../src/services/receipts/render-receipt.ts';
import { sampleReceipt } from '../../src/services/receipts/sample-receipt.ts';

const POPPLER = ['/usr/bin/pdftotext', '/usr/bin/pdfinfo'];
let dir = '';
let fileCount = 0;

beforeAll(() => {
  const missing = POPPLER.filter((tool) => !existsSync(tool));
  if (missing.length > 0) {
    throw new Error(
      `${missing.join(' and ')} missing: these tests read receipts back with poppler-utils ` +
        '(apt-get install poppler-utils). They do not pass without it.',
    );
  }
  dir = mkdtempSync(join(tmpdir(), 'receipts-pdf-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function run(tool: string, args: string[], pdf: Buffer): string {
  const file = join(dir, `${++fileCount}.pdf`);
  writeFileSync(file, pdf);
  const result = spawnSync(tool, [...args, file, ...(tool.endsWith('pdftotext') ? ['-'] : [])], {
    encoding: 'utf8',
  });
  // poppler reports a damaged file (bad xref offsets, lengths) on stderr and still answers.
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

const pdftotext = (pdf: Buffer, ...args: string[]) => run('/usr/bin/pdftotext', args, pdf);
const pdfinfo = (pdf: Buffer) => run('/usr/bin/pdfinfo', [], pdf);

/** The file's text with runs of spaces made single, so layout gaps do not matter. */
const squeezed = (text: string) => text.replace(/[ \t]+/g, ' ');

describe('PDF writer', () => {
  const info = {
    title: 'Test',
    producer: 'DealerPass',
    creationDate: new Date('2025-03-01T12:00:00Z'),
  };

  it('writes an exact cross-reference table, trailer and stream lengths', () => {
    const page = new PdfPage();
    page.text(72, 700, 'Hello (world) \\ “quotes” – dash’s $5');
    page.line(72, 690, 540, 690);
    page.fillRect(72, 600, 100, 20, [0.9, 0.9, 0.9]);
    for (const compress of [true, false]) {
      const pdf = writePdf(page, info, { compress });
      const text = pdf.toString('latin1');
      expect(text.startsWith('%PDF-1.7\n')).toBe(true);
      expect(text.endsWith('%%EOF\n')).toBe(true);

      const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
      expect(text.slice(startxref, startxref + 5)).toBe('xref\n');
      const table = /^xref\n0 (\d+)\n((?:\d{10} \d{5} [fn] \n)+)trailer\n/.exec(
        text.slice(startxref),
      );
      expect(table).not.toBeNull();
      const count = Number(table![1]);
      const rows = table![2]!.match(/.{20}/gs)!;
      expect(rows).toHaveLength(count);
      expect(rows[0]).toBe('0000000000 65535 f \n');
      rows.slice(1).forEach((row, i) => {
        const offset = Number(row.slice(0, 10));
        expect(text.slice(offset, offset + `${i + 1} 0 obj\n`.length)).toBe(`${i + 1} 0 obj\n`);
      });
      expect(text).toMatch(new RegExp(`/Size ${count} /Root 1 0 R /Info \\d+ 0 R`));

      const stream = /\/Length (\d+)[^>]*>>\nstream\n/.exec(text)!;
      const start = stream.index + stream[0].length;
      const length = Number(stream[1]);
      expect(text.slice(start + length, start + length + 10)).toBe('\nendstream');
      const body = pdf.subarray(start, start + length);
      const content = compress ? inflateSync(body) : body;
      expect(content.toString('latin1')).toBe(page.content());
      // Non-ASCII bytes are written as octal escapes: the content stream itself is ASCII.
      expect(/^[\x20-\x7e\n]*$/.test(page.content())).toBe(true);

      expect(squeezed(pdftotext(pdf))).toContain('Hello (world) \\ “quotes” – dash’s $5');
    }
  });

  it('embeds the fonts it uses as TrueType subsets in WinAnsiEncoding, one US Letter page', () => {
    const page = new PdfPage();
    page.text(72, 700, 'Regular');
    page.text(72, 680, 'Bold', { font: 'Sans-Bold' });
    const pdf = writePdf(page, info);
    const text = pdf.toString('latin1');
    expect(text).toMatch(/\/Subtype \/TrueType \/BaseFont \/[A-Z]{6}\+LiberationSans /);
    expect(text).toMatch(/\/Subtype \/TrueType \/BaseFont \/[A-Z]{6}\+LiberationSans-Bold /);
    expect(text.match(/\/Encoding \/WinAnsiEncoding/g)).toHaveLength(2);
    const meta = pdfinfo(pdf);
    expect(meta).toMatch(/Pages:\s+1\n/);
    expect(meta).toMatch(/Page size:\s+612 x 792 pts \(letter\)/);
    expect(meta).toMatch(/PDF version:\s+1\.7/);
  });

  it('writes Title, Producer and the CreationDate it is given, nothing from a clock', () => {
    const pdf = writePdf(new PdfPage(), {
      title: 'Receipt (March) – Zoë',
      producer: 'DealerPass',
      creationDate: new Date('2025-03-01T12:34:56Z'),
    });
    const meta = pdfinfo(pdf);
    expect(meta).toMatch(/Title:\s+Receipt \(March\) – Zoë\n/);
    expect(meta).toMatch(/Producer:\s+DealerPass\n/);
    expect(pdf.toString('latin1')).toContain('/CreationDate (D:20250301123456Z)');
    expect(pdfDate(new Date('1999-12-31T23:59:59.999Z'))).toBe('D:19991231235959Z');
    expect(() => pdfDate(new Date('nope'))).toThrow();
    expect(pdfTextString('a(b)c\\')).toBe('(a\\(b\\)c\\\\)');
    expect(pdfTextString('é')).toBe('<FEFF00E9>');
  });

  it('escapes parentheses and backslashes, and writes WinAnsi bytes above 0x7F as octal', () => {
    expect(escapePdfString(toWinAnsi('a(b)c\\d'))).toBe('a\\(b\\)c\\\\d');
    expect(escapePdfString(toWinAnsi('x) (y'))).toBe('x\\) \\(y');
    expect(escapePdfString(toWinAnsi('– ’ € é'))).toBe('\\226 \\222 \\200 \\351');
    expect(toWinAnsi('tab\tnew\nline')).toBe('tab new line');
    expect(toWinAnsi('日本 ✓')).toBe('?? ?');
    expect(toWinAnsi('e\u0301')).toBe('\xe9'); // a decomposed é is composed first

    const page = new PdfPage();
    page.text(72, 700, 'Unbalanced ) and ( and \\ and \\) end');
    expect(page.content()).toContain('(Unbalanced \\) and \\( and \\\\ and \\\\\\) end) Tj');
    const text = pdftotext(writePdf(page, info));
    expect(text).toContain('Unbalanced ) and ( and \\ and \\) end');
  });

  it('measures text with the same metrics a reader uses', () => {
    // pdftotext -bbox places words with the widths the file declares for its embedded fonts.
    const page = new PdfPage();
    const words = ['$1,234.50', 'Included', 'O’Brien', 'Montréal—Nord', 'WAVE', '(x)'];
    words.forEach((word, i) => {
      page.text(500, 700 - i * 20, word, { align: 'right' });
      page.text(72, 700 - i * 20, word, { font: 'Sans-Bold', size: 13 });
    });
    const html = pdftotext(writePdf(page, info), '-bbox');
    const boxes = [...html.matchAll(/<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)"/g)].map(
      (m) => ({ xMin: Number(m[1]), xMax: Number(m[2]) }),
    );
    const right = boxes.filter((box) => box.xMin > 300);
    const left = boxes.filter((box) => box.xMin < 300);
    expect(right).toHaveLength(words.length);
    for (const box of right) expect(box.xMax).toBeCloseTo(500, 1);
    left.forEach((box, i) => {
      expect(box.xMax - box.xMin).toBeCloseTo(textWidth(words[i]!, 'Sans-Bold', 13), 1);
    });
  });

  it('shrinks, then cuts, text wider than its room', () => {
    const page = new PdfPage();
    const long = 'A very long dealership name that cannot possibly fit';
    const cut = page.text(72, 700, long, { maxWidth: 100 });
    expect(cut).toBeLessThanOrEqual(100);
    expect(page.content()).toContain('\\205) Tj'); // ends with '…'
    const shrunk = page.text(72, 680, 'pay_0123456789', { size: 10, maxWidth: 60, minSize: 6 });
    expect(shrunk).toBeLessThanOrEqual(60);
    expect(page.content()).not.toContain('pay_0123456789\\205');
  });

  it('writes numbers with at most two decimals, the digits JavaScript would print', () => {
    const plain = (value: number) => {
      const rounded = Math.round(value * 100) / 100;
      return rounded === 0 ? '0' : String(rounded);
    };
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ min: -1e6, max: 1e6, noNaN: true }),
          fc.integer({ min: -100_000, max: 100_000 }).map((n) => n / 100),
          fc.integer({ min: -1000, max: 1000 }).map((n) => n / 1000),
        ),
        (value) => pdfNumber(value) === plain(value),
      ),
      { numRuns: 20_000 },
    );
    expect([0.5, -0.05, 478.54, 612, -0.001, 1e16].map(pdfNumber)).toEqual([
      '0.5',
      '-0.05',
      '478.54',
      '612',
      '0',
      '10000000000000000',
    ]);
    expect(() => pdfNumber(Number.NaN)).toThrow();
  });

  it('keeps text compact: one text object for consecutive lines, font and colour set on change', () => {
    const page = new PdfPage();
    page.text(72, 700, 'One');
    page.text(72, 680, 'Two');
    page.text(200, 680, 'Bold', { font: 'Sans-Bold', color: [0.5, 0, 0] });
    page.line(72, 670, 540, 670);
    page.text(72, 650, 'Three');
    expect(page.content()).toBe(
      '/CS0 cs /CS0 CS\n' +
        'BT /P <</MCID 0>> BDC /F1 10 Tf 0 0 0 sc 72 700 Td (One) Tj EMC\n' +
        '/P <</MCID 1>> BDC 0 -20 Td (Two) Tj EMC\n' +
        '/P <</MCID 2>> BDC /F2 10 Tf 0.5 0 0 sc 128 0 Td (Bold) Tj EMC\n' +
        'ET\n/Artifact BMC q 0.5 w 0 0 0 SC 72 670 m 540 670 l S Q EMC\n' +
        'BT /P <</MCID 3>> BDC /F1 10 Tf 0 0 0 sc 72 650 Td (Three) Tj EMC\nET\n',
    );
  });

  it('is deterministic: the same page and info give the same bytes', () => {
    const build = () => {
      const page = new PdfPage();
      page.text(72, 700, 'Same');
      return writePdf(page, info);
    };
    expect(build().equals(build())).toBe(true);
  });
});

describe('renderReceiptPdf', () => {
  const receipt = sampleReceipt();
  const pdf = renderReceiptPdf(receipt);

  it('is a one-page PDF whose text holds every figure of the receipt', () => {
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfinfo(pdf)).toMatch(/Pages:\s+1\n/);
    const text = squeezed(pdftotext(pdf, '-layout'));

    expect(text).toContain('Receipt');
    expect(text).toContain('DealerPass');
    expect(text).toContain('Support 1-800-555-0199');
    expect(text).toContain('Maria O’Connor');
    expect(text).toContain('maria.oconnor@lakeside-motors.example');
    expect(text).toContain('DealerPass user ID dp_7f3a9c21');
    expect(text).toContain('Lakeside Motors (North) LLC');
    expect(text).toContain('4180 Lakeshore Drive');
    expect(text).toContain('Chicago, IL 60613');
    expect(text).toContain('Oct 06, 2025 – Nov 05, 2025');
    expect(text).toContain('Paid on Oct 06, 2025');
    expect(text).toContain(receipt.paymentId);
    expect(text).toContain('Paid with Visa ending in 4242');

    for (const line of receipt.lines) {
      const amount = line.free ? 'Included' : formatCurrency(line.cents);
      expect(text).toMatch(
        new RegExp(
          `${line.name.replace(/[().]/g, '\\$&')} ${line.code} ${amount.replace('$', '\\$')}\\n`,
        ),
      );
    }
    expect(receipt.lines.filter((line) => line.free).map((line) => line.code)).toEqual([
      'CF',
      'AC',
    ]);
    expect(text).toContain('Subtotal $235.00');
    expect(text).toContain('Platform fee $3.00');
    expect(text).toMatch(/Total \$238\.00/);
    expect(text).toContain('Amount paid $238.00');
    expect(text).toContain('Thank you for choosing DealerPass.');
    expect(text).toContain('Call DealerPass Support at 1-800-555-0199.');
  });

  it.each([
    ['visa', 'Visa'],
    ['amex', 'American Express'],
    ['MASTERCARD', 'Mastercard'],
    ['Discover', 'Discover'],
  ])('names the card brand %s as %s (gateways store lower-case codes)', (brand, name) => {
    const brandPdf = renderReceiptPdf(sampleReceipt({ card: { brand, lastFour: '1111' } }));
    expect(squeezed(pdftotext(brandPdf, '-layout'))).toContain(`Paid with ${name} ending in 1111`);
  });

  it('carries the payment in its document information', () => {
    const meta = pdfinfo(pdf);
    expect(meta).toContain(`Title:           DealerPass receipt ${receipt.paymentId}`);
    expect(pdf.toString('latin1')).toContain('/CreationDate (D:20251006140327Z)');
  });

  it('is deterministic, and only its inputs change its bytes', () => {
    expect(renderReceiptPdf(sampleReceipt()).equals(pdf)).toBe(true);
    const later = renderReceiptPdf(sampleReceipt({ issuedAt: new Date('2025-10-06T14:03:28Z') }));
    expect(later.equals(pdf)).toBe(false);
    expect(later.length).toBe(pdf.length);
  });

  it('keeps parentheses, backslashes and typographic characters in names', () => {
    const tricky = renderReceiptPdf(
      sampleReceipt({
        account: {
          dealerpassUserId: 'dp_(1)\\',
          name: 'Zoë (Z) \\ Smith)',
          email: 'z@example.com',
        },
        dealership: {
          name: 'O’Brien ) ( \\ Motors – “East”',
          address: {
            line1: '1 Main St (rear)',
            city: 'Montréal',
            state: 'QC',
            postalCode: 'H2X 1Y4',
          },
        },
      }),
    );
    const text = squeezed(pdftotext(tricky, '-layout'));
    expect(text).toContain('Zoë (Z) \\ Smith)');
    expect(text).toContain('DealerPass user ID dp_(1)\\');
    expect(text).toContain('O’Brien ) ( \\ Motors – “East”');
    expect(text).toContain('1 Main St (rear)');
    expect(text).toContain('Montréal, QC H2X 1Y4');
  });

  it('stays one page with every selectable item and a balance line', () => {
    const all = quote(SELECTABLE_CODES, new Date('2025-10-06T14:03:27Z'), R3_PRICE_TABLE);
    const balance = { code: 'BALANCE', name: 'Unpaid balance', cents: 2500, free: false };
    const full = renderReceiptPdf(
      sampleReceipt({
        lines: [...all.lines, balance],
        platformFeeCents: all.platformFeeCents,
        totalCents: all.totalCents + 2500,
      }),
    );
    expect(pdfinfo(full)).toMatch(/Pages:\s+1\n/);
    const text = squeezed(pdftotext(full, '-layout'));
    for (const line of all.lines) expect(text).toContain(`${line.name} ${line.code}`);
    expect(text).toContain('Unpaid balance BALANCE $25.00');
    expect(text).toContain(`Total ${formatCurrency(all.totalCents + 2500)}`);
  });

  it('prints a receipt from before the platform fee with a $0.00 fee', () => {
    const at = new Date('2024-06-03T15:00:00Z');
    const priced = quote(['MMR', 'KBB'], at, R3_PRICE_TABLE);
    const old = renderReceiptPdf(
      sampleReceipt({
        lines: priced.lines,
        platformFeeCents: 0,
        totalCents: priced.totalCents,
        issuedAt: at,
      }),
    );
    const text = squeezed(pdftotext(old, '-layout'));
    expect(text).toContain('Manheim Market Report MMR $80.00');
    expect(text).toContain('Platform fee $0.00');
    expect(text).toContain('Total $145.00');
  });

  it('refuses a receipt that does not add up or would show more of a card than its last four', () => {
    const wrong = (overrides: Partial<IReceipt>) => () =>
      renderReceiptPdf(sampleReceipt(overrides));
    expect(wrong({ totalCents: 23_801 })).toThrow(/not lines \+ fee/);
    expect(wrong({ platformFeeCents: 300.5 })).toThrow(/integer cents/);
    expect(wrong({ card: { brand: 'Visa', lastFour: '4242424242424242' } })).toThrow(/four digits/);
    expect(wrong({ lines: [] })).toThrow(/at least one line/);
    expect(wrong({ paymentDate: '2025-02-30' })).toThrow(/YYYY-MM-DD/);
    expect(
      wrong({
        lines: [{ code: 'CF', name: 'CARFAX', cents: 5500, free: true }],
        platformFeeCents: 0,
        totalCents: 5500,
      }),
    ).toThrow(/free line/);
  });
});
