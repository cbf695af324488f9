/** The lead form, `POST /api/signup/contact` (001 §3, §5, §7). */
import { z } from 'zod';
import {
  requiredText,
  recaptchaField,
  requestPhoneField,
  NAME_MAX_LENGTH,
  emailField,
} from './fields.ts';
import { SIGNUP_EMAIL_MESSAGES, SIGNUP_PHONE_MESSAGES, TERMS_MESSAGE } from './signup-contact.ts';
import { LEAD_ID_PATTERN } from './signup-request.ts';

/** 001 §3: termAndCondition is a value derived from the acceptance time. */
export function termsAcceptanceValue(acceptedAt: Date): string {
  return acceptedAt.toISOString();
}

export const ZTermsAcceptanceSchema = z
  .string({ error: TERMS_MESSAGE })
  .trim()
  .min(1, { error: TERMS_MESSAGE })
  .max(64, { error: TERMS_MESSAGE });

export const ZSignupLeadRequestSchema = z.object({
  firstName: requiredText('First name', NAME_MAX_LENGTH),
  lastName: requiredText('Last name', NAME_MAX_LENGTH),
  email: emailField(SIGNUP_EMAIL_MESSAGES),
  phone: requestPhoneField(SIGNUP_PHONE_MESSAGES.required, SIGNUP_PHONE_MESSAGES.invalid),
  dealershipName: requiredText('Dealership', 200),
  termAndCondition: ZTermsAcceptanceSchema,
  leadID: z.string().trim().regex(LEAD_ID_PATTERN).optional(),
  // 001 §5: the lead form's captcha is required; the server verifies it (R8).
  recaptcha: recaptchaField,
});
export type TSignupLeadRequest = z.infer<typeof ZSignupLeadRequestSchema>;

/** 001 §7: the response's data.data.id is the lead id. */
export interface ISignupLeadResponse {
  data: { id: string };
}
