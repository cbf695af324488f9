import { describe, expect, it } from 'vitest';
import {
  CONTACT_SUBMITTED,
  ERROR_CODES,
  GENERIC_FORM_ERROR,
  TOAST,
  UNSPECIFIED_ERROR_MESSAGE,
  errorCodeForStatus,
  errorMessage,
  formErrorList,
  httpStatusOf,
  isErrorCode,
} from './messages.ts';
import type { TErrorCode } from './messages.ts';
import * as toastTexts from './messages/toast.ts';

describe('errorMessage (000 §8, 001 §8, DECISIONS R1)', () => {
  it.each([
    [
      'UPDATE_ACCOUNT_FAILED',
      'There was an error updating your account. Please try again later or contact Customer Support.',
    ],
    ['ALT_EMAIL_NOT_VALID', 'Alternate email not valid.'],
    ['ALT_EMAIL_IN_USE', 'Alternate email already in use.'],
    ['INVALID_CREDENTIALS', 'Invalid credentials. Please try again.'],
    ['BILLING_ADDRESS_NOT_VALID', 'Billing address not valid'],
    [
      'PAYMENT_PROFILE_FAILED',
      'There was an error updating your account. Please contact Customer Support.',
    ],
    [
      'CANCEL_ACCOUNT_FAILED',
      'There was an error cancelling your account. Please try again later or contact Customer Support.',
    ],
    ['CONFIRM_PASSWORD_INVALID', 'Confirm password does not meet requirements'],
    ['CREDIT_CARD_NOT_VALID', 'Credit card not valid.'],
    ['COMPANY_EMAIL_DOMAIN', 'Cannot create user with DealerPass email domain.'],
    ['EMAIL_NOT_VALID', 'Email not valid.'],
    ['USERNAME_NOT_FOUND', 'Username was not found. Please try again.'],
    ['TEMPORARY_PASSWORD_EXPIRED', 'Temporary password has expired.  Please reset again.'],
    [
      'RESET_INVALID',
      'Reset attempt was unsuccessful. Please use the most recent link or contact Customer Support.',
    ],
    ['BILLING_ZIP_NOT_VALID', 'Valid billing postal code is required.'],
    ['ZIP_NOT_VALID', 'Valid postal code is required.'],
    [
      'MIGRATED_ACCOUNT_EXISTS',
      'This username is associated with an existing migrated DealerPass ID. Please log in with your DealerPass ID.',
    ],
    ['PASSWORD_NOT_VALID', 'Password does not meet requirements.'],
    ['PASSWORD_MISMATCH', 'Current password does not match our records, please try again'],
    ['PAYMENT_TYPE_REQUIRED', 'Either a credit card, promotion code, or both are required.'],
    ['PROMO_NOT_VALID', 'Promotion code not valid.'],
    ['PROMO_RETRIES_EXCEEDED', 'Promotion code retries has exceeded limits'],
    ['PROMO_REQUIRES_CARD', 'Entered promotion code requires credit card.'],
    [
      'REACTIVATION_FAILED',
      'The transaction was not successful. Please try again or contact Customer Support.',
    ],
    ['CAPTCHA_FAILED', 'Could not verify reCAPTCHA token.'],
    ['CONFIG_UNAVAILABLE', 'Unable to get configuration'],
    ['CARFAX_TOKENS_FAILED', 'Unable to fetch Carfax tokens!'],
    ['INTERNAL_SERVER_ERROR', 'Unable to process request.'],
  ] as const)('%s', (code, text) => {
    expect(errorMessage(code)).toBe(text);
  });

  it('fills {company} and {phone} (R1)', () => {
    expect(errorMessage('COMPANY_EMAIL_DOMAIN', { company: 'Acme' })).toBe(
      'Cannot create user with Acme email domain.',
    );
    expect(errorMessage('ACCOUNT_BLOCKED', { phone: '1-888-000-0000' })).toContain(
      '1-888-000-0000',
    );
    expect(errorMessage('ACCOUNT_BLOCKED')).toContain('1-800-555-0199');
  });

  it('unknown codes fall back to Unspecified error. (000 §8)', () => {
    expect(errorMessage('NO_SUCH_CODE')).toBe(UNSPECIFIED_ERROR_MESSAGE);
    expect(UNSPECIFIED_ERROR_MESSAGE).toBe('Unspecified error.');
    expect(errorMessage('toString')).toBe(UNSPECIFIED_ERROR_MESSAGE);
  });

  it('every code has a text, a status and maps to itself', () => {
    for (const [key, value] of Object.entries(ERROR_CODES)) {
      expect(key).toBe(value);
      expect(isErrorCode(key)).toBe(true);
      expect(errorMessage(key)).not.toBe(UNSPECIFIED_ERROR_MESSAGE);
      const status = httpStatusOf(key as TErrorCode);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
    }
  });
});

describe('toasts (000 §8–9, 001 §7)', () => {
  it('texts and duration', () => {
    expect(TOAST).toEqual({
      successTitle: 'SUCCESS',
      success: 'Changes have been saved.',
      errorTitle: 'ERROR',
      error: 'Please try again.',
      alert: 'Unable to process request.',
      durationMs: 4000,
    });
    expect(CONTACT_SUBMITTED).toBe('Contact Us Form Submitted.');
  });

  it('are the catalogue-free module’s own, re-exported', () => {
    expect(TOAST).toBe(toastTexts.TOAST);
    expect(CONTACT_SUBMITTED).toBe(toastTexts.CONTACT_SUBMITTED);
  });
});

describe('errorCodeForStatus (001 §7)', () => {
  it.each([
    [400, 'VALIDATION_FAILED'],
    [422, 'VALIDATION_FAILED'],
    [401, 'UNAUTHORIZED'],
    [403, 'FORBIDDEN'],
    [404, 'NOT_FOUND'],
    [413, 'PAYLOAD_TOO_LARGE'],
    [415, 'UNSUPPORTED_MEDIA_TYPE'],
    [429, 'RATE_LIMITED'],
    [500, 'INTERNAL_SERVER_ERROR'],
    [502, 'INTERNAL_SERVER_ERROR'],
    [503, 'SERVICE_UNAVAILABLE'],
  ])('%i → %s', (status, code) => {
    expect(errorCodeForStatus(status)).toBe(code);
  });
});

describe('formErrorList (000 §8)', () => {
  it('deduplicates and defaults to Something went wrong!', () => {
    expect(formErrorList(['a', 'b', 'a', '', null, undefined])).toEqual(['a', 'b']);
    expect(formErrorList([])).toEqual([GENERIC_FORM_ERROR]);
    expect(GENERIC_FORM_ERROR).toBe('Something went wrong!');
  });
});
