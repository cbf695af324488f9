/**
 * Issue 27 item 13, decision 039: a receipt is a tagged PDF (PDF/UA-1) with embedded subset
 * fonts and XMP metadata (PDF/A-2u). The file is checked by qpdf and read back object by object
 * through qpdf's JSON (a real parser, not our own regexes); pdftotext must still find the text.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReceiptPdf } from '../../src/services/receipts/render-receipt.ts';
import { sampleReceipt } from '../../src/services/receipts/sample-receipt.ts';

const QPDF = '/usr/bin/qpdf';
const PDFTOTEXT = '/usr/bin/pdftotext';
let dir = '';

beforeAll(() => {
  for (const tool of [QPDF, PDFTOTEXT]) {
    if (!existsSync(tool)) {
      throw new Error(`${tool} missing: apt-get install qpdf poppler-utils (.ci/run does)`);
    }
  }
  dir = mkdtempSync(join(tmpdir(), 'receipts-a11y-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type TValue = string | number | boolean | null | TValue[] | { [key: string]: TValue };
interface IObject {
  value?: TValue;
  stream?: { dict: Record<string, TValue>; data?: string };
}

/** Every object of the file as qpdf reads it, streams decoded (base64 data). */
function readObjects(pdf: Buffer): { file: string; objects: Record<string, IObject> } {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  const check = spawnSync(QPDF, ['--check', file], { encoding: 'utf8' });
  expect(check.stderr).toBe('');
  expect(check.stdout).toContain('No syntax or stream encoding errors found');
  expect(check.status).toBe(0);
  const json = spawnSync(
    QPDF,
    [
      '--json=2',
      '--json-key=qpdf',
      '--json-stream-data=inline',
      '--decode-level=generalized',
      file,
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  expect(json.status).toBe(0);
  const parsed = JSON.parse(json.stdout) as { qpdf: [unknown, Record<string, IObject>] };
  return { file, objects: parsed.qpdf[1] };
}

function dictOf(objects: Record<string, IObject>, ref: TValue): Record<string, TValue> {
  const object = objects[`obj:${String(ref)}`];
  expect(object, `object ${String(ref)}`).toBeDefined();
  const value = object!.value ?? object!.stream?.dict;
  return value as Record<string, TValue>;
}

function streamText(objects: Record<string, IObject>, ref: TValue): string {
  const data = objects[`obj:${String(ref)}`]?.stream?.data;
  expect(data, `stream ${String(ref)}`).toBeDefined();
  return Buffer.from(data!, 'base64').toString('latin1');
}

describe('receipt PDF accessibility and archiving (decision 039)', () => {
  const receipt = sampleReceipt({});
  const pdf = renderReceiptPdf(receipt);
  let objects: Record<string, IObject> = {};
  let file = '';
  let catalog: Record<string, TValue> = {};
  // After the top-level beforeAll: the tools are there and the scratch folder exists.
  beforeAll(() => {
    ({ objects, file } = readObjects(pdf));
    catalog = Object.values(objects)
      .map((o) => o.value as Record<string, TValue> | undefined)
      .find((v) => v?.['/Type'] === '/Catalog')!;
  });

  it('has a catalog with /Lang, /MarkInfo, a structure tree and a displayed title', () => {
    expect(catalog['/Lang']).toBe('u:en-US');
    expect(catalog['/MarkInfo']).toEqual({ '/Marked': true });
    expect(catalog['/ViewerPreferences']).toEqual({ '/DisplayDocTitle': true });
    const root = dictOf(objects, catalog['/StructTreeRoot']!);
    expect(root['/Type']).toBe('/StructTreeRoot');
  });

  it('tags every line of text, in reading order, with headings and a table of the items', () => {
    const root = dictOf(objects, catalog['/StructTreeRoot']!);
    const [documentRef] = root['/K'] as string[];
    const walk = (ref: TValue, depth: number, out: string[]) => {
      const element = dictOf(objects, ref);
      expect(element['/Type']).toBe('/StructElem');
      const kids = element['/K'];
      if (typeof kids === 'number') {
        out.push(`${' '.repeat(depth)}${String(element['/S'])} ${kids}`);
        expect(element['/Pg']).toBeDefined();
      } else {
        out.push(`${' '.repeat(depth)}${String(element['/S'])}`);
        for (const kid of kids as string[]) walk(kid, depth + 1, out);
      }
      return out;
    };
    const tree = walk(documentRef!, 0, []);
    expect(tree[0]).toBe('/Document');
    expect(tree.filter((line) => line.trim().startsWith('/H1'))).toHaveLength(1);
    expect(tree.filter((line) => line.trim().startsWith('/H2')).length).toBeGreaterThanOrEqual(3);
    expect(tree.filter((line) => line.trim() === '/Table')).toHaveLength(1);
    // One header row and a row per line, three cells each.
    expect(tree.filter((line) => line.trim() === '/TR')).toHaveLength(receipt.lines.length + 1);
    expect(tree.filter((line) => line.trim().startsWith('/TH'))).toHaveLength(3);
    expect(tree.filter((line) => line.trim().startsWith('/TD'))).toHaveLength(
      receipt.lines.length * 3,
    );
    // MCIDs in tree order are 0, 1, 2…: the structure's order is the drawing order.
    const mcids = tree
      .map((line) => /(\d+)$/.exec(line)?.[1])
      .filter(Boolean)
      .map(Number);
    expect(mcids).toEqual(mcids.map((_, i) => i));

    // Every MCID the content stream marks is in the tree, and the parent tree maps it back.
    const page = Object.values(objects)
      .map((o) => o.value as Record<string, TValue> | undefined)
      .find((v) => v?.['/Type'] === '/Page')!;
    expect(page['/StructParents']).toBe(0);
    expect(page['/Tabs']).toBe('/S');
    const content = streamText(objects, page['/Contents']!);
    const marked = [...content.matchAll(/<<\/MCID (\d+)>> BDC/g)].map((m) => Number(m[1]));
    expect(marked).toEqual(mcids);
    // Text outside marked content would be neither tagged nor an artifact.
    const untagged = content.replace(/\/\w+ <<\/MCID \d+>> BDC[^]*?EMC/g, '');
    expect(untagged).not.toMatch(/Tj/);
    expect(content).toMatch(/\/Artifact BMC q .* re f Q EMC/);
    const parents = dictOf(objects, root['/ParentTree']!)['/Nums'] as TValue[];
    expect(parents[0]).toBe(0);
    expect(parents[1] as string[]).toHaveLength(mcids.length);
  });

  it('embeds subset TrueType fonts with widths and a ToUnicode map, nothing left to the reader', () => {
    const fonts = Object.values(objects)
      .map((o) => o.value as Record<string, TValue> | undefined)
      .filter((v) => v?.['/Type'] === '/Font');
    expect(fonts).toHaveLength(2);
    for (const font of fonts) {
      expect(font!['/Subtype']).toBe('/TrueType');
      expect(font!['/BaseFont']).toMatch(/^\/[A-Z]{6}\+LiberationSans(-Bold)?$/);
      expect(font!['/Widths'] as number[]).toHaveLength(224);
      const descriptor = dictOf(objects, font!['/FontDescriptor']!);
      expect(descriptor['/FontName']).toBe(font!['/BaseFont']);
      const program = Buffer.from(streamText(objects, descriptor['/FontFile2']!), 'latin1');
      const fontFile = objects[`obj:${String(descriptor['/FontFile2'])}`]!.stream!.dict;
      expect(fontFile['/Length1']).toBe(program.length);
      expect(program.readUInt32BE(0)).toBe(0x00010000); // a TrueType font program
      // A subset: far smaller than the shipped font (about 140 kB).
      expect(program.length).toBeLessThan(40_000);
      const cmap = streamText(objects, font!['/ToUnicode']!);
      expect(cmap).toContain('begincmap');
      expect(cmap).toMatch(/<24> <0024>/); // '$' maps back to U+0024
    }
    // Text still comes out as the words on the page, through the embedded fonts.
    const text = spawnSync(PDFTOTEXT, [file, '-'], { encoding: 'utf8' }).stdout;
    expect(text).toContain('Maria O’Connor');
    expect(text).toContain('Oct 06, 2025 – Nov 05, 2025');
    expect(text).toContain('$238.00');
  });

  it('carries title, PDF/A-2u and PDF/UA-1 claims in XMP that agree with the info dictionary', () => {
    const metadata = dictOf(objects, catalog['/Metadata']!);
    expect(metadata['/Subtype']).toBe('/XML');
    const xmp = Buffer.from(streamText(objects, catalog['/Metadata']!), 'latin1').toString('utf8');
    const title = `DealerPass receipt ${receipt.paymentId}`;
    expect(xmp).toContain(`<rdf:li xml:lang="x-default">${title}</rdf:li>`);
    expect(xmp).toContain('<pdfaid:part>2</pdfaid:part>');
    expect(xmp).toContain('<pdfaid:conformance>U</pdfaid:conformance>');
    expect(xmp).toContain('<pdfuaid:part>1</pdfuaid:part>');
    expect(xmp).toContain('<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>');
    const info = Object.values(objects)
      .map((o) => o.value as Record<string, TValue> | undefined)
      .find((v) => v?.['/Title'] !== undefined)!;
    expect(info['/Title']).toBe(`u:${title}`);
    expect(xmp).toContain(
      `<xmp:CreateDate>${receipt.issuedAt.toISOString().replace(/\.\d{3}Z$/, 'Z')}</xmp:CreateDate>`,
    );
    // Colours are CIE-based (CalRGB): PDF/A needs no output intent for them.
    expect(pdf.toString('latin1')).toContain('/ColorSpace << /CS0 [/CalRGB');
    expect(pdf.toString('latin1')).not.toMatch(/ (rg|RG)\n?/);
  });
});

describe("a refund's receipt", () => {
  it('is tagged the same way, its heading saying it is a refund', () => {
    const receipt = sampleReceipt({});
    const pdf = renderReceiptPdf({
      ...receipt,
      refund: {
        refundId: 're_0001',
        refundDate: '2025-10-20',
        amountCents: 3_000,
        earlierRefundsCents: 1_000,
      },
    });
    const { objects } = readObjects(pdf);
    const values = Object.values(objects).map((o) => o.value as Record<string, TValue> | undefined);
    const h1 = values.filter((v) => v?.['/S'] === '/H1');
    expect(h1).toHaveLength(1);
    const page = values.find((v) => v?.['/Type'] === '/Page')!;
    const content = streamText(objects, page['/Contents']!);
    const mcid = h1[0]!['/K'] as number;
    expect(content).toMatch(
      new RegExp(`/H1 <</MCID ${mcid}>> BDC [^\\n]*\\(Refund receipt\\) Tj EMC`),
    );
    expect(values.filter((v) => v?.['/Type'] === '/Font')).toHaveLength(2);
  });
});
