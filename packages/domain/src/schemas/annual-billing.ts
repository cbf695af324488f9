/**
 * Annual payment by check with the 10 % discount (DECISIONS R14, issue 28): the request bodies and
 * the answers of the dealer's and the console's calls, one schema for the web form and the
 * server's validation (contract: docs/annual-billing-api.md).
 */
import { z } from 'zod';
import { STAFF_REQUEST_MESSAGES, ZStaffReasonSchema } from '../admin/console-requests.ts';

export const ANNUAL_BILLING_MESSAGES = {
  requestKey: 'The request is not valid. Please reload the page.',
  checkNumber: 'Enter the check number: 1 to 20 letters, digits or dashes.',
  checkAmount: 'Enter the amount of the check in dollars and cents, more than $0.00.',
  receivedOn: 'Enter the date the check was received.',
} as const;

const M = ANNUAL_BILLING_MESSAGES;

/** Business dates, 'YYYY-MM-DD' in R4's time zone. */
const ZIsoDateSchema = z.iso.date();

const ZRequestKeySchema = z.uuid({ message: M.requestKey });

/** Invoice numbers `{prefix}-{year}-{6 digits}` (R14), e.g. DP-2026-000017. */
export const INVOICE_NUMBER_PATTERN = /^[A-Z][A-Z0-9]{0,9}-\d{4}-\d{6}$/;

export const INVOICE_STATUSES = ['open', 'paid', 'void'] as const;
export type TInvoiceStatus = (typeof INVOICE_STATUSES)[number];

// ---------------------------------------------------------------- requests

/**
 * `POST /api/users/annualBilling` (dealer). `basedOn`, optional: the offer the page showed; when
 * the period's start or the amount is no longer that (a day passed, a price took effect), the
 * server refuses with 409 ANNUAL_OFFER_CHANGED rather than issue an invoice the dealer never saw.
 */
export const ZAnnualBillingDealerRequestSchema = z.strictObject({
  requestKey: ZRequestKeySchema,
  basedOn: z
    .strictObject({
      periodStart: ZIsoDateSchema,
      discountedTotalCents: z.number().int().min(0).max(100_000_000),
    })
    .optional(),
});
export type TAnnualBillingDealerRequest = z.infer<typeof ZAnnualBillingDealerRequestSchema>;

/** `POST /api/users/annualBilling/invoices/:invoiceId/void` (dealer): an optional note why. */
export const ZVoidOwnInvoiceRequestSchema = z.strictObject({
  requestKey: ZRequestKeySchema,
  reason: z.string().trim().max(500).optional(),
});
export type TVoidOwnInvoiceRequest = z.infer<typeof ZVoidOwnInvoiceRequestSchema>;

/** `POST /api/admin/accounts/:userId/annual-billing` and `…/invoices/:invoiceId/void` (staff). */
export const ZStaffAnnualBillingRequestSchema = z.strictObject({
  requestKey: z.uuid({ message: STAFF_REQUEST_MESSAGES.requestKey }),
  reason: ZStaffReasonSchema,
});
export type TStaffAnnualBillingRequest = z.infer<typeof ZStaffAnnualBillingRequestSchema>;

/** `POST /api/admin/accounts/:userId/invoices/:invoiceId/resend`: an optional reason. */
export const ZResendInvoiceRequestSchema = z.strictObject({
  requestKey: z.uuid({ message: STAFF_REQUEST_MESSAGES.requestKey }),
  reason: ZStaffReasonSchema.optional(),
});
export type TResendInvoiceRequest = z.infer<typeof ZResendInvoiceRequestSchema>;

/** `POST /api/admin/accounts/:userId/invoices/:invoiceId/check`: a check received for an invoice. */
export const ZRecordCheckRequestSchema = z.strictObject({
  requestKey: z.uuid({ message: STAFF_REQUEST_MESSAGES.requestKey }),
  checkNumber: z
    .string({ message: M.checkNumber })
    .trim()
    .regex(/^[A-Za-z0-9-]{1,20}$/, { message: M.checkNumber }),
  amountCents: z
    .number({ message: M.checkAmount })
    .int({ message: M.checkAmount })
    .min(1, { message: M.checkAmount })
    .max(100_000_000, { message: M.checkAmount }),
  receivedOn: z.iso.date({ message: M.receivedOn }),
});
export type TRecordCheckRequest = z.infer<typeof ZRecordCheckRequestSchema>;

/** `POST /api/admin/accounts/:userId/invoices/:invoiceId/check/returned`. */
export const ZReturnedCheckRequestSchema = z.strictObject({
  requestKey: z.uuid({ message: STAFF_REQUEST_MESSAGES.requestKey }),
  reason: ZStaffReasonSchema,
});
export type TReturnedCheckRequest = z.infer<typeof ZReturnedCheckRequestSchema>;

export const ZInvoiceParamsSchema = z.strictObject({ invoiceId: z.uuid() });
export const ZStaffInvoiceParamsSchema = z.strictObject({
  userId: z.uuid(),
  invoiceId: z.uuid(),
});

/** `GET /api/admin/invoices?status=open`: the "Invoices due" queue. */
export const ZInvoiceQueueQuerySchema = z.strictObject({
  status: z.enum(['open']).default('open'),
});

// ---------------------------------------------------------------- views

export const ZInvoiceLineSchema = z.object({
  label: z.string(),
  amountCents: z.number().int(),
});
export type IInvoiceLine = z.infer<typeof ZInvoiceLineSchema>;

export const ZInvoiceCheckSchema = z.object({
  number: z.string(),
  receivedOn: ZIsoDateSchema,
  amountCents: z.number().int(),
  returnedOn: ZIsoDateSchema.optional(),
});
export type IInvoiceCheck = z.infer<typeof ZInvoiceCheckSchema>;

/**
 * One invoice as the dealer and the console see it. `lines` are the items (each × 12) and the
 * platform fee, before the discount; `discountCents` is the 10 % (a positive number, subtracted);
 * `totalCents` is what the check must say.
 */
export const ZInvoiceSchema = z.object({
  id: z.string(),
  number: z.string(),
  status: z.enum(INVOICE_STATUSES),
  issuedOn: ZIsoDateSchema,
  dueOn: ZIsoDateSchema,
  periodStart: ZIsoDateSchema,
  /** The annual period's last paid day ("paid through"); the next period starts the day after. */
  periodEnd: ZIsoDateSchema,
  lines: z.array(ZInvoiceLineSchema),
  discountCents: z.number().int(),
  totalCents: z.number().int(),
  voidedOn: ZIsoDateSchema.optional(),
  paidOn: ZIsoDateSchema.optional(),
  check: ZInvoiceCheckSchema.optional(),
});
export type IInvoice = z.infer<typeof ZInvoiceSchema>;

export const ZRemitToSchema = z.object({
  payee: z.string(),
  lines: z.array(z.string()),
});
export type IRemitTo = z.infer<typeof ZRemitToSchema>;

export const ZAnnualOfferSchema = z.object({
  monthlyTotalCents: z.number().int(),
  /** 12 × the monthly total at the prices in force at the period's start. */
  yearTotalCents: z.number().int(),
  /** What the invoice will ask: the year's total less 10 %, half up to the cent. */
  discountedTotalCents: z.number().int(),
  periodStart: ZIsoDateSchema,
  remitTo: ZRemitToSchema,
});
export type IAnnualOffer = z.infer<typeof ZAnnualOfferSchema>;

export const ZAnnualPeriodSchema = z.object({
  start: ZIsoDateSchema,
  /** Paid through this day. */
  end: ZIsoDateSchema,
});
export type IAnnualPeriod = z.infer<typeof ZAnnualPeriodSchema>;

/** `GET /api/users/annualBilling`. */
export const ZAnnualBillingStateSchema = z.object({
  offer: ZAnnualOfferSchema.nullable(),
  ineligibleReason: z.string().nullable(),
  openInvoice: ZInvoiceSchema.nullable(),
  annualPeriod: ZAnnualPeriodSchema.nullable(),
  invoices: z.array(ZInvoiceSchema),
});
export type IAnnualBillingState = z.infer<typeof ZAnnualBillingStateSchema>;

/** Every write's answer: `{ invoice }`. */
export const ZInvoiceResultSchema = z.object({ invoice: ZInvoiceSchema });
export type IInvoiceResult = z.infer<typeof ZInvoiceResultSchema>;

export const ZQueuedInvoiceSchema = ZInvoiceSchema.extend({
  userId: z.string(),
  dealershipName: z.string(),
  overdue: z.boolean(),
});
export type IQueuedInvoice = z.infer<typeof ZQueuedInvoiceSchema>;

/** `GET /api/admin/invoices?status=open`: overdue first, then by due date. */
export const ZInvoiceQueueSchema = z.object({ invoices: z.array(ZQueuedInvoiceSchema) });
export type IInvoiceQueue = z.infer<typeof ZInvoiceQueueSchema>;
