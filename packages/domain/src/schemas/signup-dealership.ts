/** Sign-up page 3, dealership information (001 §2, §5). */
import { z } from 'zod';
import {
  AUCTION_ACCESS_ID_LABEL,
  AUCTION_ACCESS_ID_PATTERN,
  DEALERSHIP_AUCTION_ACCESS_ID_LABEL,
  DEALERSHIP_AUCTION_ACCESS_ID_PATTERN,
  isAuctionAccessId,
  isDealershipAuctionAccessId,
} from '../validation/auction-access.ts';
import { invalidMessage } from '../validation/text.ts';
import { patternBody, trimmedPattern } from './json-schema.ts';
import { ZIP_MESSAGE } from './messages.ts';
import {
  ADDRESS_MAX_LENGTH,
  RUN_WITH_FIELD_ERRORS,
  checkAddress,
  countryField,
  optionalText,
  postalField,
  regionField,
  requiredText,
} from './fields.ts';

/** '' or a valid id; 0 from the API is shown as '' (000 §3) before it reaches a form. */
export function auctionAccessIdField() {
  const message = invalidMessage(AUCTION_ACCESS_ID_LABEL);
  return z
    .string({ error: message })
    .trim()
    .refine((v) => v === '' || isAuctionAccessId(v), { error: message })
    .meta({ pattern: trimmedPattern(`(?:${patternBody(AUCTION_ACCESS_ID_PATTERN)})?`) })
    .default('');
}

export function dealershipAuctionAccessIdField() {
  const message = invalidMessage(DEALERSHIP_AUCTION_ACCESS_ID_LABEL);
  return z
    .string({ error: message })
    .trim()
    .refine((v) => v === '' || isDealershipAuctionAccessId(v), { error: message })
    .meta({
      pattern: trimmedPattern(`(?:${patternBody(DEALERSHIP_AUCTION_ACCESS_ID_PATTERN)})?`),
    })
    .default('');
}

export const ZSignupDealershipFieldsSchema = z.object({
  auctionAccessId: auctionAccessIdField(),
  dealershipAuctionAccessId: dealershipAuctionAccessIdField(),
  address1: requiredText('Address', ADDRESS_MAX_LENGTH),
  address2: optionalText('Address line 2', ADDRESS_MAX_LENGTH),
  country: countryField('Country'),
  state: regionField('State is required.'),
  city: requiredText('City'),
  zip: postalField(ZIP_MESSAGE),
});

/** The profile-address rule used by page 3 and by the final payload. */
export function checkDealershipAddress(
  values: Record<string, unknown>,
  ctx: z.RefinementCtx,
): void {
  checkAddress(
    values,
    { country: 'country', state: 'state', zip: 'zip' },
    { regionPrefix: '', zip: ZIP_MESSAGE },
    ctx,
  );
}

export const ZSignupDealershipFormSchema = ZSignupDealershipFieldsSchema.superRefine(
  checkDealershipAddress,
  RUN_WITH_FIELD_ERRORS,
);
export type TSignupDealershipForm = z.infer<typeof ZSignupDealershipFormSchema>;
