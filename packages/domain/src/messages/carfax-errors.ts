/**
 * The vehicle-history (CARFAX) error codes (001 §8). Texts in quotes are verbatim; where the
 * specification only describes the text, the sentence here says what it describes.
 */
import { UNSPECIFIED_ERROR_MESSAGE, fillPlaceholders } from '../messages.ts';
import type { IMessageVars } from '../messages.ts';

const UNAVAILABLE = 'CARFAX is currently unavailable. Please try again later.';
const PRODUCT_SUPPORT = 'Something went wrong. Please contact Customer Support at {phone}.';
const PARTNER_HELP =
  'There is a problem with your CARFAX partner account. Please contact CARFAX partner help.';
const DEALER_PROBLEM =
  'Your CARFAX dealer account could not be verified. Please contact CARFAX support.';

export const CARFAX_ERROR_TEXTS = {
  GENERIC_SERVER_ERROR: UNAVAILABLE,
  INTERNAL_SERVER_ERROR: UNAVAILABLE,
  INVALID_ACCOUNT: 'Your CARFAX account is no longer active. Please contact CARFAX support.',
  INVALID_VIN: 'The VIN is not valid. Please enter a valid post 1981 year 17 digit VIN.',
  NO_DATA_VIN: 'CARFAX has no history for this VIN.',
  INVALID_ID: 'ID requested is invalid. Please check and try again.',
  UNAUTHORIZED_LOCATION: 'Not authorized to access this location.',
  NO_REPORT_IN_INVENTORY: 'Please purchase a CARFAX Report to view this data.',
  UNAUTHORIZED: 'Unable to log in to CARFAX. Please sign in to CARFAX again.',
  UNABLE_TO_FETCH_REPORT_URL_PATH:
    'CARFAX is currently unavailable. Our team is working on it; please try again later.',
  UNSPECIFIED_ERROR: PRODUCT_SUPPORT,
  UNABLE_TO_GENERATE_SUMMARY: PRODUCT_SUPPORT,
  VALIDATION_ERROR: PRODUCT_SUPPORT,
  TOKEN_MISSING: 'Tokens are missing',
  INVALID_PARTNER_ACCOUNT: PARTNER_HELP,
  INVALID_PARTNER_COMP_CODE: PARTNER_HELP,
  MISSING_DATA: 'Invalid or missing data in the request.',
  QUOTA_EXCEEDED: 'The daily CARFAX request quota has been exceeded. Please try again tomorrow.',
  RATE_LIMIT_EXCEEDED: 'Too many CARFAX requests. Please slow down and try again.',
  UNAUTHORIZED_USER: 'User is not authorized to access this product',
  SERVICE_DOWN: UNAVAILABLE,
  INACTIVE_DEALER: DEALER_PROBLEM,
  UNMATCHED_DEALER: DEALER_PROBLEM,
  UNMATCHED_DEALER_ID: DEALER_PROBLEM,
} as const;
export type TCarfaxErrorCode = keyof typeof CARFAX_ERROR_TEXTS;

export function isCarfaxErrorCode(code: unknown): code is TCarfaxErrorCode {
  return typeof code === 'string' && Object.hasOwn(CARFAX_ERROR_TEXTS, code);
}

export function carfaxErrorMessage(code: string, vars?: IMessageVars): string {
  return isCarfaxErrorCode(code)
    ? fillPlaceholders(CARFAX_ERROR_TEXTS[code], vars)
    : UNSPECIFIED_ERROR_MESSAGE;
}

/** Token status from the provider (000 §7, 001 §4): 200 valid, 401 expired, 404 missing. */
export function carfaxTokenStatus(
  httpStatus: number,
): 'connected' | 'expired' | 'missing' | 'error' {
  if (httpStatus === 200) return 'connected';
  if (httpStatus === 401) return 'expired';
  if (httpStatus === 404) return 'missing';
  return 'error';
}
