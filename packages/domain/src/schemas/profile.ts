/**
 * The profile form (000 §5) and `PUT /api/users/current` (000 §7). Only altEmail and altPhone
 * are editable; the rest of the form is shown disabled and validated as the specification lists.
 */
import { z } from 'zod';
import { COUNTRY_CODES } from '../geo/countries.ts';
import { errorMessage } from '../messages.ts';
import { requiredMessage } from '../validation/text.ts';
import {
  ADDRESS_MAX_LENGTH,
  NAME_MAX_LENGTH,
  OPTIONAL_EMAIL_JSON_SCHEMA,
  checkAddress,
  countryField,
  emailField,
  optionalEmailField,
  optionalTenDigitPhoneField,
  optionalText,
  regionField,
  requiredText,
  tenDigitPhoneField,
} from './fields.ts';
import { ZIP_MESSAGE } from './messages.ts';
import { auctionAccessIdField, dealershipAuctionAccessIdField } from './signup-dealership.ts';
import {
  AUTOCHECK_REQUEST_JSON_SCHEMA,
  ZAutoCheckRequestFieldsSchema,
  checkAutoCheckRequest,
} from './autocheck.ts';
import { isValidEmail } from '../validation/email.ts';
import { TEN_DIGIT_PHONE_PATTERN, isTenDigitPhone } from '../validation/phone.ts';
import { patternBody, trimmedPattern } from './json-schema.ts';

export const PROFILE_MESSAGES = {
  email: 'Please enter a valid email address',
  phone: 'Valid 10 digit phone number is required',
} as const;

/** The fields a user may change (000 §5). */
export const PROFILE_EDITABLE_FIELDS = ['altEmail', 'altPhone'] as const;

export const ZProfileFormFieldsSchema = z.object({
  firstName: requiredText('First name', NAME_MAX_LENGTH),
  lastName: requiredText('Last name', NAME_MAX_LENGTH),
  dealership: requiredText('Dealership', 200),
  email: emailField({ required: PROFILE_MESSAGES.email, invalid: PROFILE_MESSAGES.email }),
  altEmail: optionalEmailField(PROFILE_MESSAGES.email),
  phone: tenDigitPhoneField(PROFILE_MESSAGES.phone),
  altPhone: optionalTenDigitPhoneField(PROFILE_MESSAGES.phone),
  address1: requiredText('Address', ADDRESS_MAX_LENGTH),
  address2: optionalText('Address line 2', ADDRESS_MAX_LENGTH),
  city: requiredText('City'),
  country: countryField('Country'),
  state: regionField(requiredMessage('State')),
  zip: requiredText('Zip', 10),
  auctionAccessId: auctionAccessIdField(),
  dealershipAuctionAccessId: dealershipAuctionAccessIdField(),
});

export const ZProfileFormSchema = ZProfileFormFieldsSchema.superRefine((values, ctx) => {
  checkAddress(
    values,
    { country: 'country', state: 'state', zip: 'zip' },
    // 000 §5: the profile's fields are required with '{label} is required.'
    { regionPrefix: '', zip: ZIP_MESSAGE, zipLabel: 'Zip' },
    ctx,
  );
});
export type TProfileForm = z.infer<typeof ZProfileFormSchema>;

/**
 * `PUT /api/users/current`: the client sends the merged user, the server applies only the
 * editable profile fields and, unless `verifyAutoCheckCredentials` is false (a profile save),
 * the AutoCheck settings. Unknown keys are dropped.
 */
export const ZUpdateCurrentUserRequestSchema = z
  .object({
    // No defaults: a key that is absent leaves the stored value unchanged.
    altEmail: z
      .string()
      .trim()
      .refine((v) => v === '' || isValidEmail(v), { error: errorMessage('ALT_EMAIL_NOT_VALID') })
      .meta(OPTIONAL_EMAIL_JSON_SCHEMA)
      .optional(),
    altPhone: z
      .string()
      .trim()
      .refine((v) => v === '' || isTenDigitPhone(v), { error: PROFILE_MESSAGES.phone })
      .meta({ pattern: trimmedPattern(`(?:${patternBody(TEN_DIGIT_PHONE_PATTERN)})?`) })
      .optional(),
    altPhoneCountryCode: z.union([z.enum(COUNTRY_CODES), z.literal('')]).optional(),
    verifyAutoCheckCredentials: z.boolean().optional(),
    ...ZAutoCheckRequestFieldsSchema.shape,
  })
  .superRefine((values, ctx) => {
    if (values.verifyAutoCheckCredentials !== false) checkAutoCheckRequest(values, ctx);
  })
  .meta({
    if: {
      required: ['verifyAutoCheckCredentials'],
      properties: { verifyAutoCheckCredentials: { const: false } },
    },
    else: AUTOCHECK_REQUEST_JSON_SCHEMA,
  });
export type TUpdateCurrentUserRequest = z.infer<typeof ZUpdateCurrentUserRequestSchema>;
