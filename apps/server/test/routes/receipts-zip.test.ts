/**
 * The zip writer, the year zip and the compatibility zip. Archives are read back twice: by a
 * reader written here from the zip specification (with its own CRC-32, so a wrong checksum in
 * the writer cannot hide behind the same function) and by Info-ZIP's unzip when it is installed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, dosDateOf, readZip, referenceCrc32 } from '../support/zip-reader.ts';
import {
  ZPdfZipRequestSchema,
  type TPdfZipRequest,
} from '@dealerpass/domain/schemas/payment-history';
import { AppError } from '../../src/errors/app-error.ts';
import errorHandler from '../../src/plugins/error-handler.ts';
import { dosDate, dosDateTime } from '../../src/lib/zip/dos-date-time.ts';
import {
  StoredZipWriter,
  createStoredZip,
  storedZipSize,
  type IZipEntry,
} from '../../src/lib/zip/stored-zip.ts';
import {
  buildYearZip,
  receiptCrc32,
  type IStoredReceipt,
} from '../../src/services/receipts/build-year-zip.ts';
import { renderReceiptPdf } from '../../src/services/receipts/render-receipt.ts';
import { sampleReceipt } from '../../src/services/receipts/sample-receipt.ts';
import {
  PDF_ZIP_MESSAGES,
  zipFromBase64Pdfs,
} from '../../src/services/receipts/zip-from-base64-pdfs.ts';

const UNZIP = '/usr/bin/unzip';
const hasUnzip = existsSync(UNZIP);
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'receipts-zip-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function unzip(zip: Buffer, ...args: string[]): string {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.zip`);
  writeFileSync(file, zip);
  const result = spawnSync(UNZIP, [...args, file], { encoding: 'latin1', maxBuffer: 64 << 20 });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

function unzipEntry(zip: Buffer, name: string): Buffer {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.zip`);
  writeFileSync(file, zip);
  const result = spawnSync(UNZIP, ['-p', file, name], { maxBuffer: 64 << 20 });
  expect(result.status).toBe(0);
  return result.stdout;
}

// ---- The writer ----------------------------------------------------------------------------

describe('stored zip writer', () => {
  const modifiedAt = new Date('2025-03-01T15:04:07Z');
  const entries: IZipEntry[] = [
    { name: 'hello.txt', data: Buffer.from('hello, zip\n') },
    { name: 'zeros.bin', data: Buffer.alloc(70_000) },
    { name: 'empty.pdf', data: Buffer.alloc(0) },
    {
      name: 'random.bin',
      data: Buffer.from(Array.from({ length: 999 }, (_, i) => (i * 7919) & 0xff)),
    },
  ];

  it('writes stored entries with right CRCs, sizes, UTF-8 flag, times and offsets', async () => {
    const zip = await collect(
      createStoredZip(entries, { modifiedAt, timeZone: 'America/New_York' }),
    );
    expect(zip.length).toBe(storedZipSize(entries));
    const parsed = readZip(zip);
    expect(parsed.map((e) => e.name)).toEqual(entries.map((e) => e.name));
    parsed.forEach((entry, i) => {
      expect(entry.data.equals(entries[i]!.data)).toBe(true);
      expect(entry.method).toBe(0);
      expect(entry.flags).toBe(0x0800);
      expect(entry.mode).toBe(0o100644);
      // 15:04:07 UTC is 10:04:07 in New York in March; DOS keeps even seconds.
      expect(entry.dosDate).toBe(dosDateOf('2025-03-01'));
      expect(entry.dosTime).toBe((10 << 11) | (4 << 5) | 3);
    });
  });

  it.runIf(hasUnzip)('is read by Info-ZIP unzip: listing, test and exact bytes', async () => {
    const zip = await collect(createStoredZip(entries, { modifiedAt }));
    expect(unzip(zip, '-tq')).toMatch(/No errors detected/);
    const listing = unzip(zip, '-Z1');
    expect(listing.trim().split('\n')).toEqual(entries.map((e) => e.name));
    for (const entry of entries) expect(unzipEntry(zip, entry.name).equals(entry.data)).toBe(true);
  });

  it('gives the same bytes from an async source as from an array', async () => {
    async function* slowly() {
      for (const entry of entries) {
        await new Promise((resolve) => setImmediate(resolve));
        yield entry;
      }
    }
    const fromArray = await collect(createStoredZip(entries, { modifiedAt }));
    const fromAsync = await collect(createStoredZip(slowly(), { modifiedAt }));
    expect(fromAsync.equals(fromArray)).toBe(true);
  });

  it('streams: the first entry is sent before the source has produced the second', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const big = Buffer.alloc(100_000, 1);
    async function* source() {
      yield { name: 'first.bin', data: big };
      await gate;
      yield { name: 'second.bin', data: Buffer.from('late') };
    }
    const stream = createStoredZip(source(), { modifiedAt });
    const iterator = stream[Symbol.asyncIterator]();
    let received = 0;
    while (received < big.length) received += ((await iterator.next()).value as Buffer).length;
    expect(received).toBeGreaterThanOrEqual(30 + 'first.bin'.length + big.length);
    release();
    const rest: Buffer[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      rest.push(next.value as Buffer);
    }
    expect(rest.length).toBeGreaterThan(0);
  });

  it('is deterministic', async () => {
    const a = await collect(createStoredZip(entries, { modifiedAt }));
    const b = await collect(createStoredZip(entries, { modifiedAt }));
    expect(a.equals(b)).toBe(true);
  });

  it.each([
    '../evil.pdf',
    '/etc/passwd',
    'a/b.pdf',
    'a\\b.pdf',
    '.hidden',
    'x..pdf',
    '',
    'spaced name.pdf',
    'ünï.pdf',
    `${'a'.repeat(101)}.pdf`,
  ])('refuses the entry name %j', async (name) => {
    const writer = new StoredZipWriter({ modifiedAt });
    expect(() => writer.add({ name, data: Buffer.from('x') })).toThrow(/unsafe entry name/);
    await expect(
      collect(createStoredZip([{ name, data: Buffer.from('x') }], { modifiedAt })),
    ).rejects.toThrow(/unsafe entry name/);
  });

  it('refuses a duplicate name and use after finish', () => {
    const writer = new StoredZipWriter({ modifiedAt });
    writer.add({ name: 'a.pdf', data: Buffer.from('x') });
    expect(() => writer.add({ name: 'a.pdf', data: Buffer.from('y') })).toThrow(/duplicate/);
    writer.finish();
    expect(() => writer.add({ name: 'b.pdf', data: Buffer.from('x') })).toThrow(/after finish/);
  });

  it('turns instants into DOS date and time, clamped to 1980–2107', () => {
    expect(dosDateTime(new Date('2025-12-31T23:59:59Z'))).toEqual({
      date: dosDateOf('2025-12-31'),
      time: (23 << 11) | (59 << 5) | 29,
    });
    // 2025-01-01 03:00 UTC is still 31 December in New York.
    expect(dosDateTime(new Date('2025-01-01T03:00:00Z'), 'America/New_York')).toEqual({
      date: dosDateOf('2024-12-31'),
      time: 22 << 11,
    });
    expect(dosDateTime(new Date('1970-01-01T00:00:00Z'))).toEqual({
      date: dosDateOf('1980-01-01'),
      time: 0,
    });
    expect(dosDateTime(new Date('2200-06-01T00:00:00Z'))).toEqual({
      date: dosDateOf('2107-12-31'),
      time: (23 << 11) | (59 << 5) | 29,
    });
    expect(() => dosDateTime(new Date(Number.NaN))).toThrow();
    expect(dosDate(2025, 3, 5)).toEqual({ date: dosDateOf('2025-03-05'), time: 0 });
    expect(dosDate(1979, 12, 31)).toEqual({ date: dosDateOf('1980-01-01'), time: 0 });
    expect(dosDate(2108, 1, 1)).toEqual(dosDateTime(new Date('2200-01-01T00:00:00Z')));
  });
});

// ---- The year zip --------------------------------------------------------------------------

/** A year of stored receipts: monthly renewals plus a second payment on one day (a reactivation). */
function yearOfReceipts(): IStoredReceipt[] {
  const dates = [
    '2025-01-05',
    '2025-02-05',
    '2025-03-05',
    '2025-03-05',
    '2025-04-05',
    '2025-05-05',
    '2025-06-05',
    '2025-07-05',
    '2025-08-05',
    '2025-09-05',
    '2025-10-05',
    '2025-11-05',
  ];
  return dates.map((activationDate, i) => ({
    activationDate,
    receiptPdf: renderReceiptPdf(
      sampleReceipt({
        paymentDate: activationDate,
        paymentId: `pay_2025_${String(i + 1).padStart(2, '0')}`,
        issuedAt: new Date(`${activationDate}T14:00:0${i % 10}Z`),
      }),
    ),
  }));
}

describe('buildYearZip', () => {
  const payments = yearOfReceipts();
  // The database hands them over newest first, as the history lists them.
  const newestFirst = [...payments].reverse();

  it('holds one entry per payment, each the stored PDF byte for byte, in date order', async () => {
    const download = buildYearZip(2025, newestFirst, { supportPhone: '1-800-555-0199' });
    expect(download.fileName).toBe('2025-payments-history.zip');
    expect(download.headers).toEqual({
      'content-type': 'application/zip',
      'content-disposition': 'attachment; filename="2025-payments-history.zip"',
      'content-length': String(download.byteLength),
    });
    const zip = await collect(download.stream);
    expect(zip.length).toBe(download.byteLength);

    const parsed = readZip(zip);
    expect(parsed).toHaveLength(payments.length);
    const names = parsed.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.slice(0, 5)).toEqual([
      '2025-01-05-payment.pdf',
      '2025-02-05-payment.pdf',
      '2025-03-05-payment.pdf',
      '2025-03-05-payment-2.pdf',
      '2025-04-05-payment.pdf',
    ]);
    expect(download.entryNames).toEqual(names);
    // Same-day payments keep the order they were given in: newest first here.
    const sameDay = newestFirst.filter((p) => p.activationDate === '2025-03-05');
    expect(parsed[2]!.data.equals(sameDay[0]!.receiptPdf)).toBe(true);
    expect(parsed[3]!.data.equals(sameDay[1]!.receiptPdf)).toBe(true);
    for (const entry of parsed) {
      const date = entry.name.slice(0, 10);
      const stored = payments.filter((p) => p.activationDate === date).map((p) => p.receiptPdf);
      expect(stored.some((pdf) => pdf.equals(entry.data))).toBe(true);
      expect(entry.method).toBe(0);
      expect(entry.dosDate).toBe(dosDateOf(date));
      expect(entry.name).toMatch(/^\d{4}-\d{2}-\d{2}-payment(-\d+)?\.pdf$/);
    }
  });

  it.runIf(hasUnzip)('unzip lists one entry per payment and returns each stored PDF', async () => {
    const download = buildYearZip(2025, newestFirst, { supportPhone: '1-800-555-0199' });
    const zip = await collect(download.stream);
    expect(unzip(zip, '-tq')).toMatch(/No errors detected/);
    const listing = unzip(zip, '-l');
    expect(listing).toMatch(/\s12 files\n$/);
    for (const name of download.entryNames) {
      expect(listing).toContain(name);
      const bytes = unzipEntry(zip, name);
      expect(payments.some((p) => p.receiptPdf.equals(bytes))).toBe(true);
    }
  });

  it('gives the same bytes with the CRC-32 stored beside each receipt as computed now', async () => {
    const stored = newestFirst.map((p) => ({ ...p, receiptCrc32: receiptCrc32(p.receiptPdf) }));
    for (const p of stored) expect(p.receiptCrc32).toBe(referenceCrc32(p.receiptPdf));
    const computed = await collect(buildYearZip(2025, newestFirst, { supportPhone: '1' }).stream);
    const fromStored = await collect(buildYearZip(2025, stored, { supportPhone: '1' }).stream);
    expect(fromStored.equals(computed)).toBe(true);
  });

  it('answers 404 with the no-receipt text for a year without payments', () => {
    try {
      buildYearZip(2024, [], { supportPhone: '1-800-555-0100' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).statusCode).toBe(404);
      expect((error as AppError).message).toBe(
        'We are unable to process your request. You do not have a current receipt available for 2024, please contact Support at 1-800-555-0100 to obtain a copy.',
      );
    }
  });

  it('refuses payments of another year and stored bytes that are not a PDF', () => {
    const phone = { supportPhone: '1' };
    expect(() => buildYearZip(2024, payments, phone)).toThrow(/not in 2024/);
    expect(() =>
      buildYearZip(
        2025,
        [{ activationDate: '2025-01-05', receiptPdf: Buffer.from('nope') }],
        phone,
      ),
    ).toThrow(/not a PDF/);
    const pdf = payments[0]!.receiptPdf;
    for (const activationDate of [
      '2025-13-01',
      '2025-00-10',
      '2025-02-32',
      '2025-2-01',
      '2025/02/01',
      '20x5-02-01',
    ]) {
      expect(
        () => buildYearZip(2025, [{ activationDate, receiptPdf: pdf }], phone),
        activationDate,
      ).toThrow(/is not in 2025/);
    }
    // A timestamp is read as its day.
    expect(
      buildYearZip(2025, [{ activationDate: '2025-02-01T00:00:00.000Z', receiptPdf: pdf }], phone)
        .entryNames,
    ).toEqual(['2025-02-01-payment.pdf']);
  });

  it('names a day’s third payment …-payment-3.pdf, in the order given, whatever the input order', () => {
    const pdf = payments[0]!.receiptPdf;
    const day = (activationDate: string) => ({ activationDate, receiptPdf: pdf });
    const shuffled = [day('2025-04-02'), day('2025-01-09'), day('2025-04-02'), day('2025-04-02')];
    expect(buildYearZip(2025, shuffled, { supportPhone: '1' }).entryNames).toEqual([
      '2025-01-09-payment.pdf',
      '2025-04-02-payment.pdf',
      '2025-04-02-payment-2.pdf',
      '2025-04-02-payment-3.pdf',
    ]);
  });
});

// ---- POST /api/pdf/zip ---------------------------------------------------------------------

const PDF = renderReceiptPdf(sampleReceipt());
const pdfBlob = (filename: string, data: Buffer = PDF) => ({
  filename,
  data: data.toString('base64'),
});
const now = new Date('2025-10-06T18:30:00Z');

function refusal(request: TPdfZipRequest): AppError {
  try {
    zipFromBase64Pdfs(request, { now });
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const appError = error as AppError;
    expect(appError.statusCode).toBe(400);
    expect(appError.code).toBe('VALIDATION_FAILED');
    return appError;
  }
  throw new Error('the request was accepted');
}

describe('zipFromBase64Pdfs', () => {
  it('zips the decoded PDFs under their names, dated now in the business time zone', async () => {
    const other = renderReceiptPdf(sampleReceipt({ paymentId: 'pay_other' }));
    const request = {
      zipFilename: '2025-payments-history.zip',
      pdfBlobs: [pdfBlob('2025-10-06-payment.pdf'), pdfBlob('2025-09-06-payment.pdf', other)],
    };
    expect(ZPdfZipRequestSchema.safeParse(request).success).toBe(true);
    const download = zipFromBase64Pdfs(request, { now });
    expect(download.fileName).toBe('2025-payments-history.zip');
    const zip = await collect(download.stream);
    expect(zip.length).toBe(download.byteLength);
    const parsed = readZip(zip);
    expect(parsed.map((e) => e.name)).toEqual(['2025-10-06-payment.pdf', '2025-09-06-payment.pdf']);
    expect(parsed[0]!.data.equals(PDF)).toBe(true);
    expect(parsed[1]!.data.equals(other)).toBe(true);
    expect(parsed[0]!.dosDate).toBe(dosDateOf('2025-10-06'));
    expect(parsed[0]!.dosTime).toBe((14 << 11) | (30 << 5)); // 18:30 UTC is 14:30 in New York
  });

  it('accepts exactly 24 files and exactly 10 MB', async () => {
    const twentyFour = Array.from({ length: 24 }, (_, i) => pdfBlob(`r-${i}.pdf`));
    const download = zipFromBase64Pdfs({ zipFilename: 'all.zip', pdfBlobs: twentyFour }, { now });
    expect(readZip(await collect(download.stream))).toHaveLength(24);

    const half = Buffer.alloc(5 * 1024 * 1024, 0x20);
    half.write('%PDF-1.4\n', 'latin1');
    const tenMb = {
      zipFilename: 'big.zip',
      pdfBlobs: [pdfBlob('a.pdf', half), pdfBlob('b.pdf', half)],
    };
    expect(zipFromBase64Pdfs(tenMb, { now }).byteLength).toBeGreaterThan(10 * 1024 * 1024);
  });

  it('refuses more than 24 files, or none', () => {
    const many = Array.from({ length: 25 }, (_, i) => pdfBlob(`r-${i}.pdf`));
    expect(refusal({ zipFilename: 'a.zip', pdfBlobs: many }).errors).toEqual([
      { source: 'pdfBlobs', message: PDF_ZIP_MESSAGES.fileCount },
    ]);
    expect(refusal({ zipFilename: 'a.zip', pdfBlobs: [] }).errors[0]!.source).toBe('pdfBlobs');
  });

  it('refuses more than 10 MB in all', () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 0x20);
    big.write('%PDF-1.4\n', 'latin1');
    expect(
      refusal({ zipFilename: 'a.zip', pdfBlobs: [pdfBlob('a.pdf', big), pdfBlob('b.pdf', big)] })
        .errors,
    ).toEqual([{ source: 'pdfBlobs', message: PDF_ZIP_MESSAGES.tooLarge }]);
  });

  it('refuses entries that are not PDFs or not plain base64', () => {
    const error = refusal({
      zipFilename: 'a.zip',
      pdfBlobs: [
        pdfBlob('ok.pdf'),
        pdfBlob('text.pdf', Buffer.from('hello, not a pdf')),
        { filename: 'junk.pdf', data: 'JVBE*i0x' },
        { filename: 'short.pdf', data: 'JVBERi0' },
      ],
    });
    expect(error.errors).toEqual([
      { source: 'pdfBlobs.1.data', message: PDF_ZIP_MESSAGES.notPdf },
      { source: 'pdfBlobs.2.data', message: PDF_ZIP_MESSAGES.notPdf },
      { source: 'pdfBlobs.3.data', message: PDF_ZIP_MESSAGES.notPdf },
    ]);
  });

  it('refuses unsafe names, names Windows reserves and names equal but for case', () => {
    const request = {
      zipFilename: 'receipts.zip',
      pdfBlobs: [
        pdfBlob('March.pdf'),
        pdfBlob('march.pdf'),
        pdfBlob('CON.pdf'),
        pdfBlob('lpt1.pdf'),
        pdfBlob('../up.pdf'),
        pdfBlob('/root.pdf'),
        pdfBlob('dir/file.pdf'),
        pdfBlob('.hidden.pdf'),
        pdfBlob('notes.txt'),
      ],
    };
    // What the schema lets through and only the service sees: case and reserved names.
    const schemaOnly = { ...request, pdfBlobs: request.pdfBlobs.slice(0, 4) };
    expect(ZPdfZipRequestSchema.safeParse(schemaOnly).success).toBe(true);
    expect(refusal(schemaOnly).errors).toEqual([
      { source: 'pdfBlobs.1.filename', message: PDF_ZIP_MESSAGES.duplicateName },
      { source: 'pdfBlobs.2.filename', message: PDF_ZIP_MESSAGES.reservedName },
      { source: 'pdfBlobs.3.filename', message: PDF_ZIP_MESSAGES.reservedName },
    ]);
    expect(refusal(request).errors.map((e) => e.source)).toEqual([
      'pdfBlobs.1.filename',
      'pdfBlobs.2.filename',
      'pdfBlobs.3.filename',
      'pdfBlobs.4.filename',
      'pdfBlobs.5.filename',
      'pdfBlobs.6.filename',
      'pdfBlobs.7.filename',
      'pdfBlobs.8.filename',
    ]);
    expect(refusal({ zipFilename: '../x.zip', pdfBlobs: [pdfBlob('a.pdf')] }).errors).toEqual([
      { source: 'zipFilename', message: PDF_ZIP_MESSAGES.unsafeName },
    ]);
    expect(refusal({ zipFilename: 'nul.zip', pdfBlobs: [pdfBlob('a.pdf')] }).errors).toEqual([
      { source: 'zipFilename', message: PDF_ZIP_MESSAGES.reservedName },
    ]);
  });
});

// ---- Behind Fastify, the way the routes will use them --------------------------------------

describe('served through Fastify with the server error handler', () => {
  const routes: FastifyPluginAsyncZod = async (app) => {
    app.post(
      '/zip',
      { schema: { body: ZPdfZipRequestSchema }, bodyLimit: 16 * 1024 * 1024 },
      async (request, reply) => {
        const download = zipFromBase64Pdfs(request.body, { now });
        return reply.headers(download.headers).send(download.stream);
      },
    );
    app.get('/year', async (_request, reply) => {
      const download = buildYearZip(2025, yearOfReceipts(), { supportPhone: '1-800-555-0199' });
      return reply.headers(download.headers).send(download.stream);
    });
  };

  async function build() {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(errorHandler);
    await app.register(routes);
    return app;
  }

  it('streams the year zip with its headers', async () => {
    const app = await build();
    const response = await app.inject({ method: 'GET', url: '/year' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="2025-payments-history.zip"',
    );
    const body = response.rawPayload;
    expect(response.headers['content-length']).toBe(String(body.length));
    expect(readZip(body)).toHaveLength(12);
    await app.close();
  });

  it('answers a refused request with a 400 body naming the field', async () => {
    const app = await build();
    const response = await app.inject({
      method: 'POST',
      url: '/zip',
      payload: { zipFilename: 'r.zip', pdfBlobs: [pdfBlob('A.pdf'), pdfBlob('a.pdf')] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Something went wrong!',
      errors: [{ source: 'pdfBlobs.1.filename', message: PDF_ZIP_MESSAGES.duplicateName }],
    });
    const ok = await app.inject({
      method: 'POST',
      url: '/zip',
      payload: { zipFilename: 'r.zip', pdfBlobs: [pdfBlob('a.pdf')] },
    });
    expect(ok.statusCode).toBe(200);
    expect(readZip(ok.rawPayload)[0]!.data.equals(PDF)).toBe(true);
    await app.close();
  });
});
