/** Sign-up page 1, contact details (001 §2, §5). */
import { z } from 'zod';
import { DEVICE_TYPES, PHONE_LABEL } from '../forms/signup.ts';
import { COUNTRY_CODES } from '../geo/countries.ts';
import { ERROR_CODES, errorMessage } from '../messages.ts';
import { isCompanyEmail } from '../validation/email.ts';
import { SIGNUP_PHONE_PATTERN } from '../validation/phone.ts';
import { requiredMessage } from '../validation/text.ts';
import { NAME_MAX_LENGTH, emailField, recaptchaField, requiredText } from './fields.ts';

export const TERMS_MESSAGE = 'You must agree to Terms of Use, Privacy, and Refund polices.';

export const SIGNUP_EMAIL_MESSAGES = {
  required: requiredMessage('Email'),
  invalid: 'Email must be a valid email address.',
  tooShort: 'Email must be at least 8 characters.',
  tooLong: 'Email must be at most 254 characters.',
} as const;

export const SIGNUP_PHONE_MESSAGES = {
  required: requiredMessage(PHONE_LABEL),
  invalid: `${PHONE_LABEL} must match the following pattern: XXX-XXX-XXXX.`,
} as const;

/** Plain fields, so a page or the lead form can `.pick()` from them. */
export const ZSignupContactFieldsSchema = z.object({
  firstName: requiredText('First name', NAME_MAX_LENGTH),
  lastName: requiredText('Last name', NAME_MAX_LENGTH),
  email: emailField(SIGNUP_EMAIL_MESSAGES),
  phone: z
    .string({ error: SIGNUP_PHONE_MESSAGES.required })
    .trim()
    .min(1, { error: SIGNUP_PHONE_MESSAGES.required, abort: true })
    .regex(SIGNUP_PHONE_PATTERN, { error: SIGNUP_PHONE_MESSAGES.invalid }),
  phoneCountryCode: z.enum(COUNTRY_CODES, { error: requiredMessage('Phone country code') }),
  dealership: requiredText('Dealership', 200),
  deviceType: z.enum(DEVICE_TYPES, { error: requiredMessage('Device type') }),
  recaptcha: recaptchaField,
  terms: z.literal(true, { error: TERMS_MESSAGE }),
});

export const ZSignupContactFormSchema = ZSignupContactFieldsSchema;
export type TSignupContactForm = z.infer<typeof ZSignupContactFormSchema>;

export interface ICompanyEmailDomain {
  /** The configured company name, for the message (R1). */
  name: string;
  /** The refused e-mail domain (R1); its sub-domains are refused too. */
  emailDomain: string;
}

/** R1's refusal of the company's own domain, as a check on an e-mail field. */
export function notCompanyEmail(company: ICompanyEmailDomain) {
  const message = errorMessage(ERROR_CODES.COMPANY_EMAIL_DOMAIN, { company: company.name });
  return z.string().refine((email) => !isCompanyEmail(email, company.emailDomain), {
    error: message,
  });
}

/** Page 1 with the company-domain check, so it is refused beside the other e-mail checks. */
export function createSignupContactFormSchema(company: ICompanyEmailDomain) {
  return ZSignupContactFieldsSchema.extend({
    email: emailField(SIGNUP_EMAIL_MESSAGES).pipe(notCompanyEmail(company)),
  });
}
