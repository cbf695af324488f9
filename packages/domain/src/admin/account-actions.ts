/**
 * The operator console's account actions (DECISIONS R12, docs/decisions/026): the request bodies
 * the console's dialogs validate and the server validates again, and what every action answers.
 */
import { z } from 'zod';
import { WITHOUT_RAW_LENGTH, trimmedLengthPattern } from '../schemas/json-schema.ts';
import {
  ZSubscriptionChangePreviewSchema,
  ZSubscriptionChangeRequestSchema,
  ZSubscriptionChangeResultSchema,
} from '../schemas/subscription-change.ts';

export const STAFF_ACTION_MESSAGES = {
  requestKeyInvalid: 'The action request is not valid. Please reload the page.',
  reasonLength: 'Enter a reason of 3 to 500 characters.',
  amountInvalid: 'Enter an amount in cents greater than zero.',
  amountTooLarge: 'That amount is too large.',
} as const;

export const STAFF_REASON_MIN_LENGTH = 3;
export const STAFF_REASON_MAX_LENGTH = 500;
/** No single staff refund or balance adjustment is larger than 100,000 dollars. */
export const STAFF_MAX_AMOUNT_CENTS = 10_000_000;

/**
 * One per dialog the console opens (R12): a double click or a retried request carries the same
 * key, and the server answers the first result without acting a second time.
 */
export const ZRequestKeySchema = z.uuid({ message: STAFF_ACTION_MESSAGES.requestKeyInvalid });

/** Why the member acts, kept on the audit row (R12). */
export const ZStaffReasonSchema = z
  .string()
  .trim()
  .min(STAFF_REASON_MIN_LENGTH, { message: STAFF_ACTION_MESSAGES.reasonLength })
  .max(STAFF_REASON_MAX_LENGTH, { message: STAFF_ACTION_MESSAGES.reasonLength })
  // The lengths are the trimmed text's (docs/decisions/053).
  .meta({
    pattern: trimmedLengthPattern(STAFF_REASON_MIN_LENGTH, STAFF_REASON_MAX_LENGTH),
    ...WITHOUT_RAW_LENGTH,
  });

const ZAmountCentsSchema = z
  .number({ message: STAFF_ACTION_MESSAGES.amountInvalid })
  .int({ message: STAFF_ACTION_MESSAGES.amountInvalid })
  .positive({ message: STAFF_ACTION_MESSAGES.amountInvalid })
  .max(STAFF_MAX_AMOUNT_CENTS, { message: STAFF_ACTION_MESSAGES.amountTooLarge });

/** Resend the verification e-mail, end the sessions, retry a failed renewal: a reason is optional. */
export const ZStaffActionRequestSchema = z.strictObject({
  requestKey: ZRequestKeySchema,
  reason: ZStaffReasonSchema.optional(),
});
export type TStaffActionRequest = z.infer<typeof ZStaffActionRequestSchema>;

/** Block and unblock (R12: with a reason). */
export const ZBlockAccountRequestSchema = z.strictObject({
  requestKey: ZRequestKeySchema,
  reason: ZStaffReasonSchema,
});
export type TBlockAccountRequest = z.infer<typeof ZBlockAccountRequestSchema>;

/** Complimentary on or off (R4: a complimentary account is not charged and hides its balance). */
export const ZComplimentaryRequestSchema = z.strictObject({
  requestKey: ZRequestKeySchema,
  on: z.boolean(),
  reason: ZStaffReasonSchema.optional(),
});
export type TComplimentaryRequest = z.infer<typeof ZComplimentaryRequestSchema>;

/** A refund of (part of) an approved payment, up to what is not yet refunded (R12). */
export const ZRefundPaymentRequestSchema = z.strictObject({
  requestKey: ZRequestKeySchema,
  amountCents: ZAmountCentsSchema,
  reason: ZStaffReasonSchema,
});
export type TRefundPaymentRequest = z.infer<typeof ZRefundPaymentRequestSchema>;

/** A chargeback the card network reported for a payment (R4: the fee, and inactive). */
export const ZChargebackRequestSchema = z.strictObject({
  requestKey: ZRequestKeySchema,
  reason: ZStaffReasonSchema,
});
export type TChargebackRequest = z.infer<typeof ZChargebackRequestSchema>;

export const BALANCE_ADJUSTMENT_KINDS = ['credit', 'charge'] as const;

/** A credit (lowers what the account owes) or a charge (raises it), with a reason (R12). */
export const ZBalanceAdjustmentRequestSchema = z.strictObject({
  requestKey: ZRequestKeySchema,
  kind: z.enum(BALANCE_ADJUSTMENT_KINDS),
  amountCents: ZAmountCentsSchema,
  reason: ZStaffReasonSchema,
});
export type TBalanceAdjustmentRequest = z.infer<typeof ZBalanceAdjustmentRequestSchema>;

/** The account as an action leaves it: what the console refreshes (cents, positive owed). */
export const ZStaffAccountStateSchema = z.object({
  userId: z.string(),
  accountStatus: z.string(),
  complimentary: z.boolean(),
  balanceCents: z.number().int(),
});
export type TStaffAccountState = z.infer<typeof ZStaffAccountStateSchema>;

/**
 * What every action answers: its audit row, whether this request key had already been acted on
 * (then nothing was done again), and the account now.
 */
export const ZStaffActionResultSchema = z.object({
  auditId: z.number().int(),
  repeated: z.boolean(),
  account: ZStaffAccountStateSchema,
});
export type TStaffActionResult = z.infer<typeof ZStaffActionResultSchema>;

/** A refund's answer adds the refund and what is left of its payment. */
export const ZRefundResultSchema = ZStaffActionResultSchema.extend({
  refund: z.object({
    refundId: z.string(),
    paymentId: z.string(),
    amountCents: z.number().int(),
    status: z.enum(['succeeded']),
    /** Everything refunded of the payment so far, this refund included. */
    paymentRefundedCents: z.number().int(),
    refundableCents: z.number().int(),
  }),
});
export type TRefundResult = z.infer<typeof ZRefundResultSchema>;

/**
 * "Retry renewal now" (DECISIONS R16): an attempt outside R4's schedule, answered with what the
 * gateway made of it. 'paid': the account is paid, as with a new card. 'declined': nothing
 * changed but the decline's record (the schedule's next retry and attempts left are as they
 * were). 'pending': the gateway did not answer; the charge goes again at the scheduled retry
 * under the same key, so it cannot be taken twice.
 */
export const RETRY_RENEWAL_OUTCOMES = ['paid', 'declined', 'pending'] as const;
export type TRetryRenewalOutcome = (typeof RETRY_RENEWAL_OUTCOMES)[number];

export const ZRetryRenewalResultSchema = ZStaffActionResultSchema.extend({
  outcome: z.enum(RETRY_RENEWAL_OUTCOMES),
  /** The gateway's reason when declined (e.g. 'declined', 'insufficient_funds'). */
  declineReason: z.string().nullable(),
});
export type TRetryRenewalResult = z.infer<typeof ZRetryRenewalResultSchema>;

/**
 * "Adjust" (issue 28): billing staff change a dealer's selection on their behalf, with the dealer's
 * own rules (R10) and preview, based on the selection the console showed (a 409 when it changed
 * meanwhile, decision 035), with a reason for the audit (R12).
 */
export const ZAdjustSubscriptionRequestSchema = z.strictObject({
  requestKey: ZRequestKeySchema,
  codes: ZSubscriptionChangeRequestSchema.shape.codes,
  basedOn: ZSubscriptionChangeRequestSchema.shape.basedOn,
  reason: ZStaffReasonSchema,
});
export type TAdjustSubscriptionRequest = z.infer<typeof ZAdjustSubscriptionRequestSchema>;

/** The console's preview: the dealer's, and whether the account is complimentary (nothing charged). */
export const ZAdjustSubscriptionPreviewSchema = ZSubscriptionChangePreviewSchema.extend({
  complimentary: z.boolean(),
});
export type TAdjustSubscriptionPreview = z.infer<typeof ZAdjustSubscriptionPreviewSchema>;

/**
 * What an adjustment came to. 'applied': nothing was charged (a removal, an addition two paid
 * items make free, a complimentary account). 'charged': the prorated charge was paid by the card on
 * file, and the dealer is sent its receipt. 'declined': the card declined and nothing changed
 * (R10). 'pending': the gateway did not answer; the same request again (its key) finishes it, and
 * the charge is taken once at most.
 */
export const ADJUST_SUBSCRIPTION_OUTCOMES = ['applied', 'charged', 'declined', 'pending'] as const;
export type TAdjustSubscriptionOutcome = (typeof ADJUST_SUBSCRIPTION_OUTCOMES)[number];

export const ZAdjustSubscriptionResultSchema = ZStaffActionResultSchema.extend({
  outcome: z.enum(ADJUST_SUBSCRIPTION_OUTCOMES),
  change: ZSubscriptionChangeResultSchema,
  declineReason: z.string().nullable(),
});
export type TAdjustSubscriptionResult = z.infer<typeof ZAdjustSubscriptionResultSchema>;

/**
 * The console's words for a refused adjustment (the dealer's page has its own, in the second
 * person): the same codes and statuses as the dealer's change.
 */
export const ADJUST_SUBSCRIPTION_MESSAGES = {
  notAllowed:
    'This account’s subscriptions cannot be changed in its current status (pending cancel and inactive accounts reactivate first; validating payment may only remove).',
  stale:
    'The subscriptions changed since this preview (the dealer or another member changed them). Nothing was charged or changed; review the change again.',
  cardRequired:
    'This change is charged today and there is no card on file. Ask the dealer to add a card in Billing Details first.',
  inProgress: 'A change of this account is still being charged. Wait a moment and try again.',
} as const;
