/**
 * Receipt generation: milliseconds per receipt for renderReceiptPdf, the PDF the billing engine
 * makes once per successful payment. 2,000 receipts after a warm-up, each with its own payment
 * id and date so no two are the same. Target (issue 5): ≤ 5 ms per receipt.
 */
import { renderReceiptPdf } from '../apps/server/src/services/receipts/render-receipt.ts';
import { sampleReceipt } from '../apps/server/src/services/receipts/sample-receipt.ts';

const COUNT = Number(process.env.BENCH_RECEIPTS ?? 2000);
const WARM_UP = 300;
const TARGET_MS = 5;

const receipts = Array.from({ length: COUNT }, (_, i) => {
  const day = String((i % 28) + 1).padStart(2, '0');
  return sampleReceipt({
    paymentId: `pay_bench_${String(i).padStart(6, '0')}`,
    paymentDate: `2025-10-${day}`,
    issuedAt: new Date(`2025-10-${day}T14:00:00Z`),
  });
});

for (let i = 0; i < WARM_UP; i++) renderReceiptPdf(receipts[i % COUNT]!);

let bytes = 0;
const start = process.hrtime.bigint();
for (const receipt of receipts) bytes += renderReceiptPdf(receipt).length;
const elapsedMs = Number(process.hrtime.bigint() - start) / 1e6;
const perReceipt = elapsedMs / COUNT;

console.log(
  `${COUNT} receipts in ${elapsedMs.toFixed(1)} ms (after ${WARM_UP} warm-up), ` +
    `${Math.round(bytes / COUNT)} bytes each on average`,
);
console.log(
  `receipt PDF: ${perReceipt.toFixed(3)} ms per receipt (target ≤ ${TARGET_MS} ms) ${perReceipt <= TARGET_MS ? 'PASS' : 'FAIL'}`,
);
process.exitCode = perReceipt <= TARGET_MS ? 0 : 1;
