import { TOAST } from './messages/toast.ts';

/**
 * The message catalogue: every error code the server sends and the text the user sees for it
 * (000 §8, 001 §8), plus the shared toast texts (defined in `messages/toast.ts`). Texts are
 * verbatim from the specification with DECISIONS R1 applied (KAR Global → {company}, KAR ID →
 * DealerPass ID).
 */

export const ERROR_CODES = {
  // Platform (STYLE §6, 001 §7 shared HTTP conventions)
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  NOT_FOUND: 'NOT_FOUND',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  CSRF_FAILED: 'CSRF_FAILED',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  RATE_LIMITED: 'RATE_LIMITED',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  CAPTCHA_FAILED: 'CAPTCHA_FAILED',
  SIGN_IN_CAPTCHA_REQUIRED: 'SIGN_IN_CAPTCHA_REQUIRED',
  // Sessions (DECISIONS R6, 001 §4)
  INVALID_TOKEN: 'INVALID_TOKEN',
  DUPLICATE_SESSION: 'DUPLICATE_SESSION',
  ACCOUNT_BLOCKED: 'ACCOUNT_BLOCKED',
  ACCOUNT_INACTIVE: 'ACCOUNT_INACTIVE',
  // Account and billing (000 §8, 001 §8)
  UPDATE_ACCOUNT_FAILED: 'UPDATE_ACCOUNT_FAILED',
  PAYMENT_FAILED: 'PAYMENT_FAILED',
  USER_UPDATE_FAILED: 'USER_UPDATE_FAILED',
  ALT_EMAIL_NOT_VALID: 'ALT_EMAIL_NOT_VALID',
  ALT_EMAIL_IN_USE: 'ALT_EMAIL_IN_USE',
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  BILLING_ADDRESS_NOT_VALID: 'BILLING_ADDRESS_NOT_VALID',
  PAYMENT_PROFILE_FAILED: 'PAYMENT_PROFILE_FAILED',
  CANCEL_ACCOUNT_FAILED: 'CANCEL_ACCOUNT_FAILED',
  CREDIT_CARD_NOT_VALID: 'CREDIT_CARD_NOT_VALID',
  RAW_CARD_DATA_REFUSED: 'RAW_CARD_DATA_REFUSED',
  BILLING_ZIP_NOT_VALID: 'BILLING_ZIP_NOT_VALID',
  ZIP_NOT_VALID: 'ZIP_NOT_VALID',
  REACTIVATION_FAILED: 'REACTIVATION_FAILED',
  // Identity and sign-up (001 §8)
  CONFIRM_PASSWORD_INVALID: 'CONFIRM_PASSWORD_INVALID',
  COMPANY_EMAIL_DOMAIN: 'COMPANY_EMAIL_DOMAIN',
  EMAIL_NOT_VALID: 'EMAIL_NOT_VALID',
  EMAIL_IN_USE: 'EMAIL_IN_USE',
  USERNAME_NOT_FOUND: 'USERNAME_NOT_FOUND',
  TEMPORARY_PASSWORD_EXPIRED: 'TEMPORARY_PASSWORD_EXPIRED',
  RESET_INVALID: 'RESET_INVALID',
  MIGRATED_ACCOUNT_EXISTS: 'MIGRATED_ACCOUNT_EXISTS',
  PASSWORD_NOT_VALID: 'PASSWORD_NOT_VALID',
  PASSWORD_MISMATCH: 'PASSWORD_MISMATCH',
  PAYMENT_TYPE_REQUIRED: 'PAYMENT_TYPE_REQUIRED',
  PROMO_NOT_VALID: 'PROMO_NOT_VALID',
  PROMO_RETRIES_EXCEEDED: 'PROMO_RETRIES_EXCEEDED',
  PROMO_REQUIRES_CARD: 'PROMO_REQUIRES_CARD',
  SIGNUP_IN_PROGRESS: 'SIGNUP_IN_PROGRESS',
  // Integrations (000 §7–8)
  CONFIG_UNAVAILABLE: 'CONFIG_UNAVAILABLE',
  CARFAX_TOKENS_FAILED: 'CARFAX_TOKENS_FAILED',
  CARFAX_TOKENS_EXPIRED: 'CARFAX_TOKENS_EXPIRED',
  CARFAX_TOKENS_MISSING: 'CARFAX_TOKENS_MISSING',
  CARFAX_PROVIDER_ERROR: 'CARFAX_PROVIDER_ERROR',
  INTEGRATION_NOT_HELD: 'INTEGRATION_NOT_HELD',
  AUTOCHECK_UNAVAILABLE: 'AUTOCHECK_UNAVAILABLE',
  CHANGE_DECLINED: 'CHANGE_DECLINED',
  CHANGE_IN_PROGRESS: 'CHANGE_IN_PROGRESS',
  CHANGE_NOT_ALLOWED: 'CHANGE_NOT_ALLOWED',
  CHANGE_CARD_REQUIRED: 'CHANGE_CARD_REQUIRED',
  CHANGE_SELECTION_STALE: 'CHANGE_SELECTION_STALE',
  PRICE_CHANGE_TOO_SOON: 'PRICE_CHANGE_TOO_SOON',
  PRICE_CHANGE_NOT_WITHDRAWABLE: 'PRICE_CHANGE_NOT_WITHDRAWABLE',
  // The operator console (R12, docs/decisions/026)
  STAFF_SECOND_FACTOR_REQUIRED: 'STAFF_SECOND_FACTOR_REQUIRED',
  STAFF_ROLE_REQUIRED: 'STAFF_ROLE_REQUIRED',
  TOTP_INVALID: 'TOTP_INVALID',
  ACTION_NOT_ALLOWED: 'ACTION_NOT_ALLOWED',
  ACTION_IN_PROGRESS: 'ACTION_IN_PROGRESS',
  REFUND_NOT_ALLOWED: 'REFUND_NOT_ALLOWED',
  REFUND_FAILED: 'REFUND_FAILED',
  CHARGEBACK_REFUNDED_IN_FULL: 'CHARGEBACK_REFUNDED_IN_FULL',
  ALREADY_EXISTS: 'ALREADY_EXISTS',
  PROMO_CODE_EXISTS: 'PROMO_CODE_EXISTS',
  // Annual payment by check (R14)
  ANNUAL_NOT_AVAILABLE: 'ANNUAL_NOT_AVAILABLE',
  INVOICE_NOT_OPEN: 'INVOICE_NOT_OPEN',
  CHECK_AMOUNT_MISMATCH: 'CHECK_AMOUNT_MISMATCH',
  CHECK_NOT_RETURNABLE: 'CHECK_NOT_RETURNABLE',
  ANNUAL_PERIOD_BILLED: 'ANNUAL_PERIOD_BILLED',
  ANNUAL_OFFER_CHANGED: 'ANNUAL_OFFER_CHANGED',
  // One intent, one key (docs/decisions/031)
  REQUEST_KEY_REUSED: 'REQUEST_KEY_REUSED',
} as const;

export type TErrorCode = keyof typeof ERROR_CODES;

export const DEFAULT_SUPPORT_PHONE = '1-800-555-0199';
export const DEFAULT_COMPANY = 'DealerPass';

/** 000 §8: a field error whose code has no text. */
export const UNSPECIFIED_ERROR_MESSAGE = 'Unspecified error.';
/** 000 §8: the form-level default. */
export const GENERIC_FORM_ERROR = 'Something went wrong!';

// Kept in their own module so the web app's first load can take them without this catalogue;
// re-exported so existing imports keep working.
export { CONTACT_SUBMITTED, TOAST } from './messages/toast.ts';

const UPDATE_ACCOUNT_TEXT =
  'There was an error updating your account. Please try again later or contact Customer Support.';

/**
 * Texts per code. `{phone}` and `{company}` are filled by errorMessage (R1). Codes the
 * specification gives no text for use the nearest specified text or a plain sentence.
 */
const ERROR_TEXTS: Record<TErrorCode, string> = {
  VALIDATION_FAILED: GENERIC_FORM_ERROR,
  NOT_FOUND: 'The requested resource was not found.',
  UNAUTHORIZED: 'Please sign in to continue.',
  FORBIDDEN: 'You do not have access to this resource.',
  CSRF_FAILED: 'Your session could not be verified. Please reload the page and try again.',
  UNSUPPORTED_MEDIA_TYPE: 'The request format is not supported.',
  PAYLOAD_TOO_LARGE: 'The request is too large.',
  RATE_LIMITED: 'Too many requests. Please wait a moment and try again.',
  INTERNAL_SERVER_ERROR: TOAST.alert,
  SERVICE_UNAVAILABLE: 'The service is temporarily unavailable. Please try again later.',
  CAPTCHA_FAILED: 'Could not verify reCAPTCHA token.',
  // Ours (docs/decisions/016): repeated failures ask for a captcha instead of locking the account.
  SIGN_IN_CAPTCHA_REQUIRED:
    'There have been several failed sign-ins for this account. Please confirm you are not a robot, then sign in.',
  INVALID_TOKEN: 'Your session has expired. Please sign in again.',
  DUPLICATE_SESSION: 'You have been signed out because your account was signed in elsewhere.',
  ACCOUNT_BLOCKED: 'Your account is blocked. Please contact Customer Support at {phone}.',
  ACCOUNT_INACTIVE: 'Your account is no longer active.',
  UPDATE_ACCOUNT_FAILED: UPDATE_ACCOUNT_TEXT,
  PAYMENT_FAILED: UPDATE_ACCOUNT_TEXT,
  USER_UPDATE_FAILED: UPDATE_ACCOUNT_TEXT,
  ALT_EMAIL_NOT_VALID: 'Alternate email not valid.',
  ALT_EMAIL_IN_USE: 'Alternate email already in use.',
  INVALID_CREDENTIALS: 'Invalid credentials. Please try again.',
  BILLING_ADDRESS_NOT_VALID: 'Billing address not valid',
  PAYMENT_PROFILE_FAILED:
    'There was an error updating your account. Please contact Customer Support.',
  // 001 §8 text; 000 §8 says "the provider's Customer Support" for the same code. We keep the
  // wording every other catalogue message uses.
  CANCEL_ACCOUNT_FAILED:
    'There was an error cancelling your account. Please try again later or contact Customer Support.',
  CREDIT_CARD_NOT_VALID: 'Credit card not valid.',
  // DECISIONS R5: raw card numbers and CVVs are refused with 400.
  RAW_CARD_DATA_REFUSED: 'Card details must be sent to the payment gateway only.',
  BILLING_ZIP_NOT_VALID: 'Valid billing postal code is required.',
  ZIP_NOT_VALID: 'Valid postal code is required.',
  REACTIVATION_FAILED:
    'The transaction was not successful. Please try again or contact Customer Support.',
  CONFIRM_PASSWORD_INVALID: 'Confirm password does not meet requirements',
  COMPANY_EMAIL_DOMAIN: 'Cannot create user with {company} email domain.',
  EMAIL_NOT_VALID: 'Email not valid.',
  EMAIL_IN_USE: 'An account with this email already exists.',
  USERNAME_NOT_FOUND: 'Username was not found. Please try again.',
  // Two spaces after the first sentence, verbatim (001 §8).
  TEMPORARY_PASSWORD_EXPIRED: 'Temporary password has expired.  Please reset again.',
  RESET_INVALID:
    'Reset attempt was unsuccessful. Please use the most recent link or contact Customer Support.',
  MIGRATED_ACCOUNT_EXISTS:
    'This username is associated with an existing migrated DealerPass ID. Please log in with your DealerPass ID.',
  PASSWORD_NOT_VALID: 'Password does not meet requirements.',
  PASSWORD_MISMATCH: 'Current password does not match our records, please try again',
  PAYMENT_TYPE_REQUIRED: 'Either a credit card, promotion code, or both are required.',
  PROMO_NOT_VALID: 'Promotion code not valid.',
  PROMO_RETRIES_EXCEEDED: 'Promotion code retries has exceeded limits',
  PROMO_REQUIRES_CARD: 'Entered promotion code requires credit card.',
  // Ours: a second submit while the first one's charge is still in flight (docs/decisions/013).
  SIGNUP_IN_PROGRESS:
    'Your sign-up is already being processed. Please wait a moment and try again.',
  CONFIG_UNAVAILABLE: 'Unable to get configuration',
  CARFAX_TOKENS_FAILED: 'Unable to fetch Carfax tokens!',
  // 000 §4, 001 §4: token status 401 (expired) and 404 (missing); 001 §8 TOKEN_MISSING's text.
  CARFAX_TOKENS_EXPIRED: 'Your Carfax sign-in has expired. Please sign in to Carfax again.',
  CARFAX_TOKENS_MISSING: 'Tokens are missing',
  // A failed Carfax call: the message is the Carfax code's text (001 §8), set where it is thrown.
  CARFAX_PROVIDER_ERROR: 'CARFAX is currently unavailable. Please try again later.',
  INTEGRATION_NOT_HELD: 'This integration is not part of your active subscription.',
  AUTOCHECK_UNAVAILABLE: 'AutoCheck could not check your credentials. Please try again later.',
  // R10: a declined prorated charge shows the specification's transaction message (001 §8).
  CHANGE_DECLINED:
    'The transaction was not successful. Please try again or contact Customer Support.',
  // Ours (R10): one change at a time per account.
  CHANGE_IN_PROGRESS:
    'Your previous change is still being processed. Please wait a moment and try again.',
  // Ours (R10): validating payment may only remove; pending cancel and inactive reactivate first.
  CHANGE_NOT_ALLOWED: 'Your subscriptions cannot be changed in the current account status.',
  // Ours (R10): an addition is charged at once, so an account with no card on file adds one first.
  CHANGE_CARD_REQUIRED:
    'Adding a subscription is charged today, and there is no card on file. Please add a card in Billing Details first.',
  // Ours (R10): the change was prepared against a selection another window has changed since.
  CHANGE_SELECTION_STALE:
    'Your subscriptions changed in another window; review the change. Nothing was charged or changed.',
  // Ours (R11): 30 days' notice.
  PRICE_CHANGE_TOO_SOON: "A price change needs at least 30 days' notice.",
  // Ours (R11 amended, docs/decisions/032): only a change still ahead can be withdrawn.
  PRICE_CHANGE_NOT_WITHDRAWABLE:
    'No price change for that date can be withdrawn: it was withdrawn, has taken effect or takes effect within 15 minutes.',
  // Ours (R12): the operator console's own texts, for staff only.
  STAFF_SECOND_FACTOR_REQUIRED: 'Enter the code from your authenticator app to continue.',
  STAFF_ROLE_REQUIRED: 'Your role does not allow this action.',
  TOTP_INVALID:
    'That code is not valid. Enter the current 6-digit code from your authenticator app.',
  ACTION_NOT_ALLOWED: 'This action is not possible in the account’s current state.',
  ACTION_IN_PROGRESS: 'This action is already being processed. Please wait a moment.',
  REFUND_NOT_ALLOWED: 'This payment cannot be refunded for that amount.',
  REFUND_FAILED: 'The payment gateway refused the refund. Nothing was refunded.',
  // R15: nothing is left to charge back; the dispute is answered with the refund.
  CHARGEBACK_REFUNDED_IN_FULL:
    'This payment was refunded in full, so no chargeback is recorded and no fee is charged. Contest the dispute with the card network and send the refund as evidence.',
  // Ours: a unique value taken by another request at the same moment (the field is named).
  ALREADY_EXISTS: 'This value is already in use.',
  PROMO_CODE_EXISTS: 'A promotion code with this name already exists.',
  // Ours (R14): the answer names the reason (the domain's ANNUAL_INELIGIBLE_MESSAGES).
  ANNUAL_NOT_AVAILABLE: 'Annual billing by check is not available for this account now.',
  INVOICE_NOT_OPEN: 'This invoice is no longer open: it was paid or voided.',
  // The answer names the amount the invoice leaves open.
  CHECK_AMOUNT_MISMATCH: 'The check’s amount must equal what the invoice leaves open.',
  CHECK_NOT_RETURNABLE: 'This invoice has no check that can be recorded as returned.',
  ANNUAL_PERIOD_BILLED:
    'The period this invoice is for has started and was billed by card. Void the invoice and return the check.',
  ANNUAL_OFFER_CHANGED:
    'The annual offer changed since the page showed it. Please review the new figures and confirm again.',
  // Ours (docs/decisions/031): a request key sent again with another action, target or body.
  REQUEST_KEY_REUSED:
    'This request was already sent with different details. Please reload the page and try again.',
};

/** HTTP status per code, so the server's one error handler and the client agree (STYLE §6). */
export const ERROR_HTTP_STATUS: Record<TErrorCode, number> = {
  VALIDATION_FAILED: 400,
  NOT_FOUND: 404,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  CSRF_FAILED: 403,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  CAPTCHA_FAILED: 400,
  SIGN_IN_CAPTCHA_REQUIRED: 400,
  INVALID_TOKEN: 403,
  DUPLICATE_SESSION: 403,
  ACCOUNT_BLOCKED: 403,
  ACCOUNT_INACTIVE: 403,
  UPDATE_ACCOUNT_FAILED: 500,
  PAYMENT_FAILED: 402,
  USER_UPDATE_FAILED: 500,
  ALT_EMAIL_NOT_VALID: 400,
  ALT_EMAIL_IN_USE: 409,
  INVALID_CREDENTIALS: 400,
  BILLING_ADDRESS_NOT_VALID: 400,
  PAYMENT_PROFILE_FAILED: 502,
  CANCEL_ACCOUNT_FAILED: 400,
  CREDIT_CARD_NOT_VALID: 400,
  RAW_CARD_DATA_REFUSED: 400,
  BILLING_ZIP_NOT_VALID: 400,
  ZIP_NOT_VALID: 400,
  REACTIVATION_FAILED: 402,
  CONFIRM_PASSWORD_INVALID: 400,
  COMPANY_EMAIL_DOMAIN: 400,
  EMAIL_NOT_VALID: 400,
  EMAIL_IN_USE: 409,
  USERNAME_NOT_FOUND: 404,
  TEMPORARY_PASSWORD_EXPIRED: 400,
  RESET_INVALID: 400,
  MIGRATED_ACCOUNT_EXISTS: 409,
  PASSWORD_NOT_VALID: 400,
  PASSWORD_MISMATCH: 400,
  PAYMENT_TYPE_REQUIRED: 400,
  PROMO_NOT_VALID: 400,
  PROMO_RETRIES_EXCEEDED: 429,
  PROMO_REQUIRES_CARD: 400,
  SIGNUP_IN_PROGRESS: 409,
  CONFIG_UNAVAILABLE: 503,
  CARFAX_TOKENS_FAILED: 502,
  CARFAX_TOKENS_EXPIRED: 401,
  CARFAX_TOKENS_MISSING: 404,
  CARFAX_PROVIDER_ERROR: 502,
  INTEGRATION_NOT_HELD: 403,
  AUTOCHECK_UNAVAILABLE: 503,
  CHANGE_DECLINED: 402,
  CHANGE_IN_PROGRESS: 409,
  CHANGE_NOT_ALLOWED: 403,
  CHANGE_CARD_REQUIRED: 402,
  CHANGE_SELECTION_STALE: 409,
  PRICE_CHANGE_TOO_SOON: 400,
  PRICE_CHANGE_NOT_WITHDRAWABLE: 409,
  STAFF_SECOND_FACTOR_REQUIRED: 403,
  STAFF_ROLE_REQUIRED: 403,
  TOTP_INVALID: 400,
  ACTION_NOT_ALLOWED: 409,
  ACTION_IN_PROGRESS: 409,
  REFUND_NOT_ALLOWED: 409,
  REFUND_FAILED: 502,
  CHARGEBACK_REFUNDED_IN_FULL: 409,
  ALREADY_EXISTS: 409,
  PROMO_CODE_EXISTS: 409,
  ANNUAL_NOT_AVAILABLE: 409,
  INVOICE_NOT_OPEN: 409,
  CHECK_AMOUNT_MISMATCH: 409,
  CHECK_NOT_RETURNABLE: 409,
  ANNUAL_PERIOD_BILLED: 409,
  ANNUAL_OFFER_CHANGED: 409,
  REQUEST_KEY_REUSED: 409,
};

export interface IMessageVars {
  phone?: string;
  company?: string;
}

export function isErrorCode(value: unknown): value is TErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** Replaces `{phone}` and `{company}` with the configured values or their defaults (R1). */
export function fillPlaceholders(text: string, vars: IMessageVars = {}): string {
  return text
    .replaceAll('{phone}', vars.phone ?? DEFAULT_SUPPORT_PHONE)
    .replaceAll('{company}', vars.company ?? DEFAULT_COMPANY);
}

/** The user-facing text for a code; unknown codes give 'Unspecified error.' (000 §8). */
export function errorMessage(code: TErrorCode | string, vars?: IMessageVars): string {
  if (!isErrorCode(code)) return UNSPECIFIED_ERROR_MESSAGE;
  return fillPlaceholders(ERROR_TEXTS[code], vars);
}

export function httpStatusOf(code: TErrorCode): number {
  return ERROR_HTTP_STATUS[code];
}

/** 001 §7: the client maps a bare HTTP status to a code when the body carries none. */
export function errorCodeForStatus(status: number): TErrorCode {
  switch (status) {
    case 400:
    case 422:
      return 'VALIDATION_FAILED';
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'RATE_LIMITED';
    case 503:
      return 'SERVICE_UNAVAILABLE';
    default:
      return 'INTERNAL_SERVER_ERROR';
  }
}

/**
 * The form-level error list (000 §8): deduplicated, in order, defaulting to
 * 'Something went wrong!' when nothing usable is left.
 */
export function formErrorList(messages: readonly (string | null | undefined)[]): string[] {
  const unique = [...new Set(messages.filter((m): m is string => !!m && m.trim() !== ''))];
  return unique.length > 0 ? unique : [GENERIC_FORM_ERROR];
}
