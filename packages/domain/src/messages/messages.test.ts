import { describe, expect, it } from 'vitest';
import { SIGNUP_FAILURE_TOAST, signupFailureMessage } from './signup-failure.ts';
import { CARFAX_ERROR_TEXTS, carfaxErrorMessage, carfaxTokenStatus } from './carfax-errors.ts';
import { AUCTION_MESSAGES } from './auction.ts';
import {
  EDIT_PAYMENT_DIALOG,
  SIGNUP_CONFIRMATION,
  SNAPSHOT_EXPIRED,
  copyrightYears,
  errorPanel,
  inactiveReactivationMessage,
  notOperationalMessage,
  pendingCancelNotice,
  pendingCancelNoticeOf,
} from './ui-texts.ts';

describe('sign-up v2 failure (001 §8)', () => {
  it.each([
    [{ statusCode: 400, errors: [{ details: 'Phone is bad' }] }, 'Phone is bad'],
    [{ statusCode: 400, errors: [] }, 'Email not valid'],
    [{ statusCode: 409, errors: [{ message: 'User exists' }] }, 'User exists'],
    [
      { statusCode: 422, errors: [{ source: 'promotionCodeNotValid' }] },
      'Please enter the valid promotion code',
    ],
    [
      { statusCode: 401, errors: [{ source: 'recaptchaVerification', message: 'x' }] },
      'reCAPTCHA expired, Go back and validate the reCAPTCHA again',
    ],
    [{ statusCode: 500, errors: [{ source: 'db', message: 'Oops' }] }, 'Oops'],
    [{ statusCode: 500, errors: [{ source: 'gateway' }] }, 'gateway'],
    [{ statusCode: 409, errors: [{ source: 'gateway' }] }, 'gateway'],
    [{}, 'Something went wrong!'],
    [null, 'Something went wrong!'],
  ])('%j → %s', (body, text) => {
    expect(signupFailureMessage(body)).toBe(text);
  });

  it('red toast, bottom centre, 5 seconds', () => {
    expect(SIGNUP_FAILURE_TOAST).toEqual({ durationMs: 5000, position: 'bottom-center' });
  });
});

describe('Carfax error codes (001 §8)', () => {
  it.each([
    ['INVALID_VIN', 'The VIN is not valid. Please enter a valid post 1981 year 17 digit VIN.'],
    ['INVALID_ID', 'ID requested is invalid. Please check and try again.'],
    ['UNAUTHORIZED_LOCATION', 'Not authorized to access this location.'],
    ['NO_REPORT_IN_INVENTORY', 'Please purchase a CARFAX Report to view this data.'],
    ['TOKEN_MISSING', 'Tokens are missing'],
    ['MISSING_DATA', 'Invalid or missing data in the request.'],
    ['UNAUTHORIZED_USER', 'User is not authorized to access this product'],
    ['NOT_A_CODE', 'Unspecified error.'],
  ])('%s → %s', (code, text) => {
    expect(carfaxErrorMessage(code)).toBe(text);
  });

  it('covers all 24 codes and fills {phone}', () => {
    expect(Object.keys(CARFAX_ERROR_TEXTS)).toHaveLength(24);
    expect(carfaxErrorMessage('VALIDATION_ERROR', { phone: '1-888-111-2222' })).toContain(
      '1-888-111-2222',
    );
  });

  it.each([
    [200, 'connected'],
    [401, 'expired'],
    [404, 'missing'],
    [500, 'error'],
  ] as const)('token status %i → %s', (status, out) => {
    expect(carfaxTokenStatus(status)).toBe(out);
  });
});

describe('auction messages (001 §8)', () => {
  it('has the eight texts', () => {
    expect(Object.values(AUCTION_MESSAGES)).toEqual([
      'Unable to load auction details.',
      'There are no upcoming auctions.',
      'Unable to retrieve auctions.',
      'Unable to load auction data.',
      'Unable to load favorite auction data.',
      'Unable to update search history.',
      'Unable to update favorite auction data.',
      'Unable to update vehicle data.',
    ]);
  });
});

describe('screen texts (000 §4, §8; 001 §2, §4)', () => {
  it('verbatim texts', () => {
    expect(EDIT_PAYMENT_DIALOG.title).toBe('EDIT PAYMENT INFO');
    expect(EDIT_PAYMENT_DIALOG.question).toBe('Are you sure you want to edit this information?');
    expect(SNAPSHOT_EXPIRED.heading).toBe('SNAPSHOT LINK EXPIRED');
    expect(SIGNUP_CONFIRMATION.heading).toBe('Verification email sent.');
    expect(SIGNUP_CONFIRMATION.instruction('a@b.com')).toContain('a@b.com');
    expect(notOperationalMessage()).toBe(
      'Your account is not fully operational. Please update your credit card information or call customer support toll free at 1-800-555-0199.',
    );
  });

  it('composed texts', () => {
    expect(pendingCancelNotice('Mar 10, 2025')).toContain('Mar 10, 2025');
    // Decision 058: the day the cancellation takes effect, past a paid year not begun yet.
    expect(pendingCancelNoticeOf({ nextBillDate: '2026-04-10' })).toBe(
      pendingCancelNotice('Apr 10, 2026'),
    );
    expect(
      pendingCancelNoticeOf({ nextBillDate: '2026-04-10', cancellationTakesEffect: '2026-04-10' }),
    ).toBe(pendingCancelNotice('Apr 10, 2026'));
    const later = pendingCancelNoticeOf({
      nextBillDate: '2026-04-10',
      cancellationTakesEffect: '2027-05-10',
    });
    expect(later).toContain('It will become inactive after May 10, 2027.');
    expect(later).toContain('Monthly card billing goes on until your year paid by check begins');
    expect(
      inactiveReactivationMessage({ type: 'visa', lastDigits: '1111', expiration: '12/29' }),
    ).toContain('visa ending in 1111');
    expect(errorPanel('Unable to get configuration', { phone: '1-800-000-0000' })).toEqual({
      title: 'An error has occurred.',
      body: 'Unable to get configuration Please contact Customer Support at 1-800-000-0000.',
    });
    expect(copyrightYears(2025)).toBe('2008–2025');
    expect(copyrightYears(2008)).toBe('2008');
  });
});
