/**
 * The operator console's read and business requests (DECISIONS R12, docs/decisions/026): one
 * schema for the console's forms and the server's validation.
 */
import { z } from 'zod';
import {
  PRICE_CHANGE_MESSAGES,
  ZSchedulePriceChangeRequestSchema,
} from '../billing/price-change.ts';
import {
  MAX_AMOUNT_OFF_CENTS,
  PROMOTION_CODE_INPUT_PATTERN,
  PROMOTION_KINDS,
  PROMOTION_VALUE_MAXIMUM,
  isValidPromotionValue,
  normalizePromotionCode,
} from '../billing/promotion.ts';
import {
  WITHOUT_RAW_LENGTH,
  patternBody,
  trimmedLengthPattern,
  trimmedPattern,
} from '../schemas/json-schema.ts';

export const STAFF_REQUEST_MESSAGES = {
  requestKey: 'The request is not valid. Please reload the page.',
  reason: 'Enter a reason of 3 to 500 characters.',
  searchText: 'Enter 2 to 100 characters to search for.',
  promotionCode:
    'Use 2 to 50 letters, digits, dashes or underscores, starting with a letter or digit.',
  promotionValue:
    'Enter a whole percentage from 1 to 100, an amount from $0.01 to $10,000.00, or 1 to 12 months.',
  promotionDescription: 'Enter a description of at most 200 characters.',
  promotionExpiry: 'Enter a future date and time.',
  maxRedemptions: 'Enter a whole number from 1 to 1000000, or leave it empty.',
  replyBody: 'Enter a reply of 1 to 5000 characters.',
  dateRange: 'Enter the dates as ISO 8601 instants.',
} as const;

const M = STAFF_REQUEST_MESSAGES;

/** Made by the console when an action's dialog opens: a repeat answers the first result (026). */
export const ZStaffRequestKeySchema = z.uuid({ message: M.requestKey });

/** R12: an action that asks for a reason gets a real one, trimmed. */
export const ZStaffReasonSchema = z
  .string({ message: M.reason })
  .trim()
  .min(3, { message: M.reason })
  .max(500, { message: M.reason })
  // The lengths are the trimmed text's (docs/decisions/053).
  .meta({ pattern: trimmedLengthPattern(3, 500), ...WITHOUT_RAW_LENGTH });

/** `GET /api/admin/accounts?q=`: e-mail, name, dealership, user id, card last four or payment id. */
export const ZAccountSearchQuerySchema = z.strictObject({
  q: z
    .string({ message: M.searchText })
    .trim()
    .min(2, { message: M.searchText })
    .max(100, { message: M.searchText })
    // The lengths are the trimmed text's (docs/decisions/053).
    .meta({ pattern: trimmedLengthPattern(2, 100), ...WITHOUT_RAW_LENGTH }),
});
export type TAccountSearchQuery = z.infer<typeof ZAccountSearchQuerySchema>;

/** The instants a request may name: from 1970 to the end of year 9999 (PostgreSQL has no year 0). */
const EARLIEST_INSTANT_MS = 0;
const LATEST_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * An ISO 8601 instant that is a real one (the format alone lets `+99:99` through) and one the
 * database can compare: year 0000, or 0001 at +14:00, was a 500 from the audit export.
 */
const ZInstantSchema = z.iso.datetime({ offset: true, message: M.dateRange }).refine(
  (text) => {
    const ms = Date.parse(text);
    return Number.isFinite(ms) && ms >= EARLIEST_INSTANT_MS && ms <= LATEST_INSTANT_MS;
  },
  { message: M.dateRange },
);

/** `GET /api/admin/audit.csv`: the audit of one account or of everyone, in an optional window. */
export const ZAuditExportQuerySchema = z.strictObject({
  userId: z.uuid().optional(),
  from: ZInstantSchema.optional(),
  to: ZInstantSchema.optional(),
});
export type TAuditExportQuery = z.infer<typeof ZAuditExportQuerySchema>;

export const ZCreatePromotionRequestSchema = z
  .strictObject({
    code: z
      .string({ message: M.promotionCode })
      .trim()
      .regex(PROMOTION_CODE_INPUT_PATTERN, { message: M.promotionCode })
      .meta({ pattern: trimmedPattern(patternBody(PROMOTION_CODE_INPUT_PATTERN)) })
      .transform(normalizePromotionCode),
    kind: z.enum(PROMOTION_KINDS),
    value: z
      .number({ message: M.promotionValue })
      .int({ message: M.promotionValue })
      .min(1, { message: M.promotionValue })
      .max(MAX_AMOUNT_OFF_CENTS, { message: M.promotionValue }),
    description: z.string().trim().max(200, { message: M.promotionDescription }),
    expiresAt: ZInstantSchema.optional(),
    maxRedemptions: z
      .number({ message: M.maxRedemptions })
      .int({ message: M.maxRedemptions })
      .min(1, { message: M.maxRedemptions })
      .max(1_000_000, { message: M.maxRedemptions })
      .optional(),
    requiresCard: z.boolean(),
    requestKey: ZStaffRequestKeySchema,
  })
  .refine((request) => isValidPromotionValue(request.kind, request.value), {
    message: M.promotionValue,
    path: ['value'],
  })
  // The value's bound by kind, for the API description (docs/decisions/053).
  .meta({
    allOf: PROMOTION_KINDS.map((kind) => ({
      if: { required: ['kind'], properties: { kind: { const: kind } } },
      then: { properties: { value: { maximum: PROMOTION_VALUE_MAXIMUM[kind] } } },
    })),
  });
export type TCreatePromotionRequest = z.infer<typeof ZCreatePromotionRequestSchema>;

export const ZPromotionCodeParamsSchema = z.strictObject({
  code: z.string().min(1).max(60),
});

export const ZDisablePromotionRequestSchema = z.strictObject({
  reason: ZStaffReasonSchema,
  requestKey: ZStaffRequestKeySchema,
});
export type TDisablePromotionRequest = z.infer<typeof ZDisablePromotionRequestSchema>;

/** An admin schedules a price change from the console (R11, R12): the command's request, keyed. */
export const ZStaffSchedulePriceRequestSchema = ZSchedulePriceChangeRequestSchema.extend({
  requestKey: ZStaffRequestKeySchema,
});
export type TStaffSchedulePriceRequest = z.infer<typeof ZStaffSchedulePriceRequestSchema>;

/** The preview asked before scheduling (R11 amended): the change as it would be sent, unkeyed. */
export const ZStaffPreviewPriceRequestSchema = ZSchedulePriceChangeRequestSchema;
export type TStaffPreviewPriceRequest = z.infer<typeof ZStaffPreviewPriceRequestSchema>;

/** An admin withdraws a change still ahead (R11 amended), with a reason for the audit (R12). */
export const ZStaffWithdrawPriceRequestSchema = z.strictObject({
  effectiveDate: ZSchedulePriceChangeRequestSchema.shape.effectiveDate,
  reason: ZStaffReasonSchema,
  requestKey: ZStaffRequestKeySchema,
});
export type TStaffWithdrawPriceRequest = z.infer<typeof ZStaffWithdrawPriceRequestSchema>;
export { PRICE_CHANGE_MESSAGES };

export const CONTACT_MESSAGE_STATUSES = ['new', 'answered'] as const;

export const ZContactMessagesQuerySchema = z.strictObject({
  status: z.enum(CONTACT_MESSAGE_STATUSES).optional(),
});

export const ZContactReplyRequestSchema = z.strictObject({
  body: z
    .string({ message: M.replyBody })
    .trim()
    .min(1, { message: M.replyBody })
    .max(5000, { message: M.replyBody }),
  requestKey: ZStaffRequestKeySchema,
});
export type TContactReplyRequest = z.infer<typeof ZContactReplyRequestSchema>;
