/**
 * What the sign-up pages show and decide before anything is checked (001 §2, §5): the device
 * choices, the phone's label, whether billing must be entered. No zod here: a page renders from
 * this module and loads its schema (`schemas/signup-*`) when it is first used (docs/decisions/027).
 */
import { isBlank } from '../validation/text.ts';

export const DEVICE_TYPES = ['iPhone', 'Android', 'Other'] as const;
export type TDeviceType = (typeof DEVICE_TYPES)[number];

export const PHONE_LABEL = 'Mobile phone number';

/** Whether billing must be entered (001 §5): it differs and (no valid promo or a card is given). */
export function billingRequired(values: {
  sameAddresses?: boolean;
  hasValidPromoCode?: boolean;
  creditCardNumber?: string;
}): boolean {
  const hasCard = !isBlank(values.creditCardNumber);
  return values.sameAddresses === false && (!values.hasValidPromoCode || hasCard);
}
