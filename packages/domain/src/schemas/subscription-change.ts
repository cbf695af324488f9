/** `/account/subscriptions/change` and its calls (DECISIONS R10). */
import { z } from 'zod';
import { SELECTABLE_CODES, isSelectableCode } from '../catalogue.ts';
import type { TSubscriptionCode } from '../catalogue.ts';
import { ZSubscriptionSelectionSchema } from './signup-subscriptions.ts';

export const SUBSCRIPTION_CHANGE_MESSAGES = {
  noChange: 'Choose at least one subscription to add or remove.',
  keyInvalid: 'The change request is not valid. Please reload the page.',
  codeInvalid: 'Please choose subscriptions from the list.',
} as const;

/** The codes a change asks for, as the query of the preview (`codes=NADA,MMR`, empty for none). */
export const ZSubscriptionChangePreviewQuerySchema = z.strictObject({
  codes: z
    .string()
    .max(SELECTABLE_CODES.length * 10)
    .transform((text) => (text === '' ? [] : text.split(',')))
    .pipe(ZSubscriptionSelectionSchema),
});
export type TSubscriptionChangePreviewQuery = z.infer<typeof ZSubscriptionChangePreviewQuerySchema>;

export const ZSubscriptionChangeRequestSchema = z.strictObject({
  codes: ZSubscriptionSelectionSchema,
  /** One per change the page prepares: a repeated submit is answered with the first result. */
  idempotencyKey: z.uuid({ message: SUBSCRIPTION_CHANGE_MESSAGES.keyInvalid }),
});
export type TSubscriptionChangeRequest = z.infer<typeof ZSubscriptionChangeRequestSchema>;

/** Undoing a pending removal: the code keeps running after the next bill date. */
export const ZUndoRemovalRequestSchema = z.strictObject({
  code: z
    .string()
    .refine(isSelectableCode, { message: SUBSCRIPTION_CHANGE_MESSAGES.codeInvalid })
    .transform((code) => code as TSubscriptionCode),
});
export type TUndoRemovalRequest = z.infer<typeof ZUndoRemovalRequestSchema>;

/** What the preview and the change answer (amounts in cents, dates 'YYYY-MM-DD'). */
export interface ISubscriptionChangePreview {
  /** The codes in force now, pending removals included. */
  currentCodes: TSubscriptionCode[];
  added: TSubscriptionCode[];
  removed: TSubscriptionCode[];
  /** Pending removals already on the account and kept by this change. */
  pendingRemovals: TSubscriptionCode[];
  chargeTodayCents: number;
  daysLeft: number;
  daysInPeriod: number;
  currentMonthlyCents: number;
  nextBillCents: number;
  nextBillDate: string;
  /** 'any' or 'removalsOnly' (validating payment, R10). */
  allowance: 'any' | 'removalsOnly';
}

export interface ISubscriptionChangeResult extends ISubscriptionChangePreview {
  changeId: string;
  /** The payment of today's prorated charge, when there was one. */
  paymentId: string | null;
}

/** `GET /api/users/subscriptions/pendingRemovals`: the pending removals and the selection in force. */
export interface ISubscriptionSelectionState {
  /** Codes removed by a change, running until `takeEffectOn`. */
  codes: TSubscriptionCode[];
  takeEffectOn: string | null;
  /** The selection in force now (pending removals included) and its automatic extras. */
  current: { codes: TSubscriptionCode[]; autoExtras: TSubscriptionCode[] };
}
