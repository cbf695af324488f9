/**
 * The year zip against the cheapest way to get the same PDFs to a client: its time divided by
 * base64-decoding the same PDFs and concatenating them (what the compatibility POST /api/pdf/zip
 * starts from), both measured in this run in alternating rounds, in CPU time, the median of 9
 * rounds. The zip is read to its last byte as a piped response reads it.
 *
 * A round is long (about a quarter of a second of baseline work): its mean is a steady state
 * that includes collecting the garbage the side made (the baseline allocates every decoded PDF
 * and the joined copy; the zip, a few headers). Short rounds let the timing of a collection
 * decide the figure, and repeated runs disagreed by a factor of two.
 *
 * The zip is `buildYearZip`, which the route serves (services/payment-history/year-receipts-zip.ts),
 * with the CRC-32 stored beside each receipt when it was made (docs/decisions/011).
 *
 * Target (issue 5): ratio ≤ 1.5, for a year of receipts (12, one a month, where the fixed cost
 * of a response weighs most) and for 240 (where the bytes do). Both must pass. Also printed: the
 * CRC-32 computed at download time, which alone costs about what the whole baseline does (zlib's
 * crc32 and Node's SIMD base64 decoder run at similar speeds), and the compatibility route.
 */
import type { Readable } from 'node:stream';
import {
  buildYearZip,
  receiptCrc32,
  type IStoredReceipt,
} from '../apps/server/src/services/receipts/build-year-zip.ts';
import { renderReceiptPdf } from '../apps/server/src/services/receipts/render-receipt.ts';
import { sampleReceipt } from '../apps/server/src/services/receipts/sample-receipt.ts';
import { PDF_ZIP_LIMITS } from '@dealerpass/domain/schemas/payment-history';
import { zipFromBase64Pdfs } from '../apps/server/src/services/receipts/zip-from-base64-pdfs.ts';

const TARGET = 1.5;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const SUPPORT = { supportPhone: '1-800-555-0199' };

/** A year of stored receipts, oldest first as the route's query gives them (yearReceiptsZip). */
function storedReceipts(count: number): IStoredReceipt[] {
  const payments = Array.from({ length: count }, (_, i) => {
    const month = String(Math.floor((i * 12) / count) + 1).padStart(2, '0');
    const day = String((i % 28) + 1).padStart(2, '0');
    const activationDate = `2025-${month}-${day}`;
    const receiptPdf = renderReceiptPdf(
      sampleReceipt({
        paymentId: `pay_bench_${String(i).padStart(6, '0')}`,
        paymentDate: activationDate,
        issuedAt: new Date(`${activationDate}T14:00:00Z`),
      }),
    );
    return { activationDate, receiptPdf, receiptCrc32: receiptCrc32(receiptPdf) };
  });
  return payments.sort((a, b) => (a.activationDate < b.activationDate ? -1 : 1));
}

/**
 * Reads the stream to its last byte the way Fastify sends it (piped, so in flowing mode, one
 * 'data' event per chunk), keeping every chunk as a socket's write queue would.
 */
function readAll(stream: Readable): Promise<number> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      bytes += chunk.length;
    });
    stream.once('end', () => resolve(bytes));
    stream.once('error', reject);
  });
}

/**
 * Mean CPU time (user + system) of one call in ms over a run of `iterations`. CPU time rather
 * than wall time: other processes on a shared machine then do not count against either side.
 */
async function time(iterations: number, run: () => Promise<number> | number): Promise<number> {
  let sink = 0;
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) sink += await run();
  const used = process.cpuUsage(start);
  if (sink === 0) throw new Error('nothing was produced');
  return (used.user + used.system) / 1000 / iterations;
}

/** The median round: rounds that another process or a timer interrupted weigh nothing. */
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function compare(count: number): Promise<{ stored: number; computed: number }> {
  const payments = storedReceipts(count);
  const withoutCrc = payments.map(({ activationDate, receiptPdf }) => ({
    activationDate,
    receiptPdf,
  }));
  const base64 = payments.map((p) => p.receiptPdf.toString('base64'));
  const baseline = () => Buffer.concat(base64.map((data) => Buffer.from(data, 'base64'))).length;
  const yearZip = () => readAll(buildYearZip(2025, payments, SUPPORT).stream);
  const yearZipComputingCrc = () => readAll(buildYearZip(2025, withoutCrc, SUPPORT).stream);
  // The compatibility route takes at most 24 files (R9).
  const request = {
    zipFilename: '2025-payments-history.zip',
    pdfBlobs: base64.map((data, i) => ({ filename: `r-${i}.pdf`, data })),
  };
  const now = new Date('2025-12-31T12:00:00Z');
  const runs: Record<string, () => number | Promise<number>> = {
    baseline,
    yearZip,
    yearZipComputingCrc,
  };
  if (count <= PDF_ZIP_LIMITS.maxFiles) {
    runs.compatZip = () => readAll(zipFromBase64Pdfs(request, { now }).stream);
  }

  // Enough calls per round for about 250 ms of baseline work; the first rounds warm up.
  const iterations = Math.max(20, Math.round(250 / (await time(200, baseline))));
  const rounds: Record<string, number[]> = {};
  for (let round = -2; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(runs)) {
      const ms = await time(iterations, run);
      if (round >= 0) (rounds[name] ??= []).push(ms);
    }
  }
  const figure = (name: string) => median(rounds[name]!);
  const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
  const ratioOf = (name: string) => figure(name) / figure('baseline');
  const kib = payments.reduce((sum, p) => sum + p.receiptPdf.length, 0) / 1024;
  console.log(
    `${count} receipts (${kib.toFixed(1)} KiB of PDF), median of ${ROUNDS} alternating rounds of ${iterations} calls:`,
  );
  console.log(`  base64 decode + concatenate (baseline):        ${us(figure('baseline'))}`);
  console.log(
    `  year zip, CRC-32 stored with each receipt:      ${us(figure('yearZip'))}  ratio ${ratioOf('yearZip').toFixed(2)}`,
  );
  console.log(
    `  year zip, CRC-32 computed now (information):    ${us(figure('yearZipComputingCrc'))}  ratio ${ratioOf('yearZipComputingCrc').toFixed(2)}`,
  );
  if (runs.compatZip) {
    console.log(
      `  POST /api/pdf/zip service, decode + CRC + zip:  ${us(figure('compatZip'))}  ratio ${ratioOf('compatZip').toFixed(2)} (information)`,
    );
  }
  return { stored: ratioOf('yearZip'), computed: ratioOf('yearZipComputingCrc') };
}

const year = await compare(12);
const steady = await compare(240);
const verdict = (ratio: number) =>
  `${ratio.toFixed(2)} (target ≤ ${TARGET}) ${ratio <= TARGET ? 'PASS' : 'FAIL'}`;
console.log(`year zip / baseline, a year (12 receipts): ${verdict(year.stored)}`);
console.log(`year zip / baseline, 240 receipts:        ${verdict(steady.stored)}`);
console.log(
  `(information) 240 receipts with the CRC-32 computed at download time: ${steady.computed.toFixed(2)}`,
);
process.exitCode = year.stored <= TARGET && steady.stored <= TARGET ? 0 : 1;
