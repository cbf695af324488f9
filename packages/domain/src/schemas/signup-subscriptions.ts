/** Sign-up page 2, subscriptions (001 §5; selection rules DECISIONS R3). */
import { z } from 'zod';
import { SELECTABLE_CODES, baseOf, isSimulcastCode } from '../catalogue.ts';
import type { TSubscriptionCode } from '../catalogue.ts';
import { selectionProblem } from '../selection.ts';

export const SUBSCRIPTIONS_REQUIRED_MESSAGE = 'At least one subscription is required.';
export const SUBSCRIPTIONS_INVALID_MESSAGE = 'Please choose subscriptions from the list.';

/**
 * `selectionProblem` in JSON Schema words (docs/decisions/053): selectable codes, each once, and
 * each simulcast only with its base.
 */
export const SELECTION_JSON_SCHEMA = {
  items: { type: 'string', enum: [...SELECTABLE_CODES] },
  uniqueItems: true,
  allOf: SELECTABLE_CODES.filter(isSimulcastCode).map((simulcast) => ({
    if: { contains: { const: simulcast } },
    then: { contains: { const: baseOf(simulcast) } },
  })),
};

function selectionField(min: number) {
  // Element errors are reported on the array itself, so the page shows one message.
  return z
    .array(z.string(), { error: SUBSCRIPTIONS_REQUIRED_MESSAGE })
    .min(min, { error: SUBSCRIPTIONS_REQUIRED_MESSAGE, abort: true })
    .max(SELECTABLE_CODES.length, { error: SUBSCRIPTIONS_INVALID_MESSAGE, abort: true })
    .refine((codes) => selectionProblem(codes) === null, { error: SUBSCRIPTIONS_INVALID_MESSAGE })
    .meta(SELECTION_JSON_SCHEMA)
    .transform((codes) => codes as TSubscriptionCode[]);
}

/** A stored selection (may be empty): known selectable codes, simulcasts with their base. */
export const ZSubscriptionSelectionSchema = selectionField(0);
/** A selection to keep paying for (a subscription change, R10): at least one subscription. */
export const ZRequiredSubscriptionSelectionSchema = selectionField(1);

export const ZSignupSubscriptionsFieldsSchema = z.object({ subscriptions: selectionField(1) });

export const ZSignupSubscriptionsFormSchema = ZSignupSubscriptionsFieldsSchema;
export type TSignupSubscriptionsForm = z.infer<typeof ZSignupSubscriptionsFormSchema>;
