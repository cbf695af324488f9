/** The cancellation form and `PATCH /api/users/cancel` (000 §3, §4, §5, §9). */
import { z } from 'zod';

export const CANCELLATION_REASONS = [
  'business-is-slow',
  'changing-vendor',
  'closing-business',
  'not-as-advertised',
  'not-enough-data',
  'not-in-auto-industry-anymore',
  'temporary-suspension-service',
  'too-expensive',
  'no-longer-employed-at-dealership',
] as const;
export type TCancellationReason = (typeof CANCELLATION_REASONS)[number];

export const CANCELLATION_REASON_LABELS: Record<TCancellationReason, string> = {
  'business-is-slow': 'Business is slow',
  'changing-vendor': 'Changing vendor',
  'closing-business': 'Closing business',
  'not-as-advertised': 'Not as advertised',
  'not-enough-data': 'Not enough data',
  'not-in-auto-industry-anymore': 'Not in the auto industry anymore',
  'temporary-suspension-service': 'Temporary suspension of service',
  'too-expensive': 'Too expensive',
  'no-longer-employed-at-dealership': 'No longer employed at dealership',
};

/** 000 §4: these two reasons also need detail text. */
export const REASONS_NEEDING_DETAIL: readonly TCancellationReason[] = [
  'changing-vendor',
  'not-enough-data',
];

export const CANCEL_DETAIL_MIN_LENGTH = 5;
export const CANCEL_DETAIL_MAX_LENGTH = 250;

export const CANCELLATION_MESSAGES = {
  reasonRequired: 'Please select a cancellation reason.',
  detailRequired: `Please tell us more (${CANCEL_DETAIL_MIN_LENGTH} to ${CANCEL_DETAIL_MAX_LENGTH} characters).`,
  detailTooShort: `Please enter at least ${CANCEL_DETAIL_MIN_LENGTH} characters.`,
  detailTooLong: `Please enter at most ${CANCEL_DETAIL_MAX_LENGTH} characters.`,
  success: 'Your subscription has been cancelled.',
} as const;

export function needsDetail(reason: string | null | undefined): boolean {
  return REASONS_NEEDING_DETAIL.includes(reason as TCancellationReason);
}

/** The counter under the text box (000 §5). */
export function remainingCharacters(text: string): number {
  return CANCEL_DETAIL_MAX_LENGTH - text.length;
}

const detailField = z
  .string()
  .trim()
  .max(CANCEL_DETAIL_MAX_LENGTH, { error: CANCELLATION_MESSAGES.detailTooLong })
  .default('');

function checkDetail(reason: string | undefined, detail: string, ctx: z.RefinementCtx): void {
  if (!needsDetail(reason)) return;
  const path = ['userProvidedCancelReason'];
  if (detail === '') {
    ctx.addIssue({ code: 'custom', message: CANCELLATION_MESSAGES.detailRequired, path });
  } else if (detail.length < CANCEL_DETAIL_MIN_LENGTH) {
    ctx.addIssue({ code: 'custom', message: CANCELLATION_MESSAGES.detailTooShort, path });
  }
}

const reasonField = z.enum(CANCELLATION_REASONS, { error: CANCELLATION_MESSAGES.reasonRequired });

/** The form holds one reason (a radio group). */
export const ZCancelSubscriptionFormSchema = z
  .object({ cancellationReason: reasonField, userProvidedCancelReason: detailField })
  .superRefine((v, ctx) => checkDetail(v.cancellationReason, v.userProvidedCancelReason, ctx));
export type TCancelSubscriptionForm = z.infer<typeof ZCancelSubscriptionFormSchema>;

/** The request carries an array holding exactly one reason (000 §3). */
export const ZCancelSubscriptionRequestSchema = z
  .object({
    cancellationReasonOptions: z
      .array(reasonField, { error: CANCELLATION_MESSAGES.reasonRequired })
      .length(1, { error: CANCELLATION_MESSAGES.reasonRequired }),
    userProvidedCancelReason: detailField,
  })
  .superRefine((v, ctx) =>
    checkDetail(v.cancellationReasonOptions[0], v.userProvidedCancelReason, ctx),
  );
export type TCancelSubscriptionRequest = z.infer<typeof ZCancelSubscriptionRequestSchema>;

export function toCancelSubscriptionRequest(
  form: TCancelSubscriptionForm,
): TCancelSubscriptionRequest {
  return {
    cancellationReasonOptions: [form.cancellationReason],
    userProvidedCancelReason: form.userProvidedCancelReason,
  };
}
