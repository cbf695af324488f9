/** `/account/subscriptions/change` and its calls (DECISIONS R10). */
import { z } from 'zod';
import { ALL_SUBSCRIPTION_CODES, SELECTABLE_CODES, isSelectableCode } from '../catalogue.ts';
import type { TSubscriptionCode } from '../catalogue.ts';
import { ZRequiredSubscriptionSelectionSchema } from './signup-subscriptions.ts';

export const SUBSCRIPTION_CHANGE_MESSAGES = {
  noChange: 'Choose at least one subscription to add or remove.',
  keyInvalid: 'The change request is not valid. Please reload the page.',
  codeInvalid: 'Please choose subscriptions from the list.',
} as const;

/**
 * The codes a change asks for, as the query of the preview (`codes=NADA,MMR`). At least one: an
 * account stops every subscription by cancelling (R4), not by a change to nothing.
 */
const SELECTABLE_CODE = `(?:${SELECTABLE_CODES.join('|')})`;

export const ZSubscriptionChangePreviewQuerySchema = z.strictObject({
  codes: z
    .string()
    .max(SELECTABLE_CODES.length * 10)
    // Known codes, comma-separated (docs/decisions/053); that none repeats and that a simulcast
    // comes with its base, a pattern without lookahead cannot say.
    .meta({ pattern: `^${SELECTABLE_CODE}(?:,${SELECTABLE_CODE})*$` })
    .transform((text) => (text === '' ? [] : text.split(',')))
    .pipe(ZRequiredSubscriptionSelectionSchema),
});
export type TSubscriptionChangePreviewQuery = z.infer<typeof ZSubscriptionChangePreviewQuerySchema>;

const ZCodeSchema = z.enum(ALL_SUBSCRIPTION_CODES as [TSubscriptionCode, ...TSubscriptionCode[]]);
const ZCodeListSchema = z.array(ZCodeSchema).max(ALL_SUBSCRIPTION_CODES.length);

export const ZSubscriptionChangeRequestSchema = z.strictObject({
  codes: ZRequiredSubscriptionSelectionSchema,
  /** One per change the page prepares: a repeated submit is answered with the first result. */
  idempotencyKey: z.uuid({ message: SUBSCRIPTION_CHANGE_MESSAGES.keyInvalid }),
  /**
   * The selection the page showed when the change was prepared (its `current.codes` and pending
   * removals): a change is computed against what the dealer saw, so when another window changed
   * it meanwhile the server refuses with 409 rather than undo that window's change (R10).
   */
  basedOn: z.strictObject({ codes: ZCodeListSchema, pendingRemovals: ZCodeListSchema }),
});
export type TSubscriptionChangeRequest = z.infer<typeof ZSubscriptionChangeRequestSchema>;

/** Undoing a pending removal: the code keeps running after the next bill date. */
export const ZUndoRemovalRequestSchema = z.strictObject({
  code: z
    .string()
    .refine(isSelectableCode, { message: SUBSCRIPTION_CHANGE_MESSAGES.codeInvalid })
    .meta({ enum: [...SELECTABLE_CODES] })
    .transform((code) => code as TSubscriptionCode),
});
export type TUndoRemovalRequest = z.infer<typeof ZUndoRemovalRequestSchema>;

const ZIsoDateSchema = z.iso.date();

/** What the preview and the change answer (amounts in cents, dates 'YYYY-MM-DD'). */
export const ZSubscriptionChangePreviewSchema = z.object({
  /** The codes in force now, pending removals included. */
  currentCodes: ZCodeListSchema,
  added: ZCodeListSchema,
  removed: ZCodeListSchema,
  /** Pending removals already on the account and kept by this change. */
  pendingRemovals: ZCodeListSchema,
  chargeTodayCents: z.number().int(),
  daysLeft: z.number().int(),
  daysInPeriod: z.number().int(),
  currentMonthlyCents: z.number().int(),
  nextBillCents: z.number().int(),
  nextBillDate: ZIsoDateSchema,
  /** 'any' or 'removalsOnly' (validating payment, R10). */
  allowance: z.enum(['any', 'removalsOnly']),
  /**
   * Each code this change adds, with its monthly price in the new selection (R3): `free` for an
   * extra that two paid items make free, added with them automatically.
   */
  additions: z.array(
    z.object({ code: ZCodeSchema, monthlyCents: z.number().int(), free: z.boolean() }),
  ),
  /** Today's charge needs a card and the account has none on file: add one first (R10). */
  cardRequired: z.boolean(),
  /**
   * R14 (decision 052): the open annual invoice the change replaces, its total and the new
   * one's; absent or null when there is none or its year's figures stay.
   */
  annualInvoice: z
    .object({ number: z.string(), totalCents: z.number().int(), newTotalCents: z.number().int() })
    .nullable()
    .optional(),
});
export type ISubscriptionChangePreview = z.infer<typeof ZSubscriptionChangePreviewSchema>;

export const ZSubscriptionChangeResultSchema = ZSubscriptionChangePreviewSchema.extend({
  changeId: z.string(),
  /** The payment of today's prorated charge, when there was one. */
  paymentId: z.string().nullable(),
});
export type ISubscriptionChangeResult = z.infer<typeof ZSubscriptionChangeResultSchema>;

/** `GET /api/users/subscriptions/pendingRemovals`: the pending removals and the selection in force. */
export const ZSubscriptionSelectionStateSchema = z.object({
  /** Codes removed by a change, running until `takeEffectOn`. */
  codes: ZCodeListSchema,
  takeEffectOn: ZIsoDateSchema.nullable(),
  /** The selection in force now (pending removals included) and its automatic extras. */
  current: z.object({ codes: ZCodeListSchema, autoExtras: ZCodeListSchema }),
});
export type ISubscriptionSelectionState = z.infer<typeof ZSubscriptionSelectionStateSchema>;
