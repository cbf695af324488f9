/**
 * Payment history and receipts: `GET /api/users/paymentHistory?year=`, the year zip
 * `GET /api/users/paymentHistory/receipts.zip?year=` and the compatibility `POST /api/pdf/zip`
 * (000 §3, §7; DECISIONS R9).
 */
import { z } from 'zod';
import { FIRST_HISTORY_YEAR } from '../billing/payment-history.ts';

export const YEAR_MESSAGE = 'Please choose a valid year.';

export const ZPaymentHistoryQuerySchema = z.object({
  year: z.coerce
    .number({ error: YEAR_MESSAGE })
    .int({ error: YEAR_MESSAGE })
    .min(FIRST_HISTORY_YEAR, { error: YEAR_MESSAGE })
    .max(9999, { error: YEAR_MESSAGE }),
});
export type TPaymentHistoryQuery = z.infer<typeof ZPaymentHistoryQuerySchema>;

/** A refund of a payment by staff (R12): its business date, dollars, and its receipt. */
export const ZPaymentRefundSchema = z.object({
  refundDate: z.string(),
  amount: z.number(),
  receiptBlob: z.string(),
});
export type TPaymentRefund = z.infer<typeof ZPaymentRefundSchema>;

/**
 * One payment row (000 §3): activationDate is year-first text, amount is dollars. A payment
 * staff refunded (part of) also carries the refunded total and each refund with its receipt
 * (R12); other rows keep the specification's four fields.
 */
export const ZPaymentSchema = z.object({
  activationDate: z.string(),
  paidWith: z.string(),
  amount: z.number(),
  receiptBlob: z.string(),
  refundedAmount: z.number().optional(),
  refunds: z.array(ZPaymentRefundSchema).optional(),
});
export type TPayment = z.infer<typeof ZPaymentSchema>;

/** R9 limits for `POST /api/pdf/zip`. */
export const PDF_ZIP_LIMITS = {
  maxFiles: 24,
  maxTotalBytes: 10 * 1024 * 1024,
  maxFileNameLength: 100,
} as const;

/** Letters, digits, dot, dash and underscore; no path separators, no leading dot. */
const SAFE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
/** Base64 of the PDF signature '%PDF-'. */
const PDF_BASE64_PREFIX = 'JVBERi0';
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * `isSafeFileName` as a JSON Schema pattern (with `maxLength`), so the OpenAPI description states
 * the rule the server checks (docs/decisions/045): a safe first character, no `..`, the extension
 * in any case. No lookahead, so test generators can produce matching names.
 */
export function safeFileNamePattern(extension: string): RegExp {
  const ext = [...extension]
    .map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : `\\${c}`))
    .join('');
  return new RegExp(`^[A-Za-z0-9_-](?:\\.?[A-Za-z0-9_-])*${ext}$`);
}

/**
 * The device names Windows reserves whatever the extension ('con.pdf', 'LPT1.zip'), which the
 * server refuses too (`zip-from-base64-pdfs.ts`): as a pattern in either case, no `i` flag.
 */
export const WINDOWS_DEVICE_NAME_PATTERN = new RegExp(
  `^(?:${['con', 'prn', 'aux', 'nul', 'com[1-9]', 'lpt[1-9]']
    .map((name) => name.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`))
    .join('|')})(?:\\.|$)`,
);

/** A file name in a request: `safeFileNamePattern` and the length limit, no device name. */
function safeFileName(extension: string) {
  return z
    .string()
    .max(PDF_ZIP_LIMITS.maxFileNameLength)
    .regex(safeFileNamePattern(extension))
    .meta({ not: { pattern: WINDOWS_DEVICE_NAME_PATTERN.source } });
}

const BASE64_CHARACTER = '[A-Za-z0-9+/]';

/**
 * The `data` rule as one pattern (docs/decisions/053): base64 in whole groups of four, starting
 * with the PDF signature's.
 */
export const PDF_BASE64_PATTERN = new RegExp(
  `^${PDF_BASE64_PREFIX}(?:${BASE64_CHARACTER}(?:${BASE64_CHARACTER}{4})*|(?:${BASE64_CHARACTER}{4})*=|${BASE64_CHARACTER}{3}(?:${BASE64_CHARACTER}{4})*==)$`,
);

export function isSafeFileName(name: string, extension: string): boolean {
  return (
    name.length <= PDF_ZIP_LIMITS.maxFileNameLength &&
    SAFE_NAME.test(name) &&
    !name.includes('..') &&
    (extension === '' || name.toLowerCase().endsWith(extension))
  );
}

/** Bytes a base64 text decodes to. */
export function base64DecodedLength(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

export const ZPdfZipRequestSchema = z
  .object({
    zipFilename: safeFileName('.zip'),
    pdfBlobs: z
      .array(
        z.object({
          filename: safeFileName('.pdf'),
          data: z
            .string()
            .max(Math.ceil((PDF_ZIP_LIMITS.maxTotalBytes * 4) / 3) + 4)
            .refine((d) => d.length % 4 === 0 && BASE64.test(d) && d.startsWith(PDF_BASE64_PREFIX))
            .meta({ pattern: PDF_BASE64_PATTERN.source }),
        }),
      )
      .min(1)
      .max(PDF_ZIP_LIMITS.maxFiles),
  })
  .refine(
    (v) =>
      v.pdfBlobs.reduce((sum, blob) => sum + base64DecodedLength(blob.data), 0) <=
      PDF_ZIP_LIMITS.maxTotalBytes,
    { error: 'The files are too large.', path: ['pdfBlobs'] },
  )
  .refine((v) => new Set(v.pdfBlobs.map((b) => b.filename)).size === v.pdfBlobs.length, {
    error: 'File names must be unique.',
    path: ['pdfBlobs'],
  });
export type TPdfZipRequest = z.infer<typeof ZPdfZipRequestSchema>;
