import { describe, expect, it } from 'vitest';
import {
  EMPTY_BILLING_ADDRESS,
  billingFromAccount,
  billingMatchesAccount,
  createBillingFormSchema,
  createPaymentProfileRequestSchema,
  createReactivateRequestSchema,
} from './billing-form.ts';
import { ZProfileFormSchema, ZUpdateCurrentUserRequestSchema } from './profile.ts';
import { ZAutoCheckFormSchema, autoCheckInUse, autoPurchaseLogMessage } from './autocheck.ts';
import {
  CANCELLATION_REASONS,
  ZCancelSubscriptionFormSchema,
  ZCancelSubscriptionRequestSchema,
  needsDetail,
  remainingCharacters,
  toCancelSubscriptionRequest,
} from './cancellation.ts';
import {
  ZPaymentHistoryQuerySchema,
  ZPdfZipRequestSchema,
  base64DecodedLength,
  isSafeFileName,
} from './payment-history.ts';
import { ZEmailParamSchema } from './user-params.ts';
import { issuesOf } from './test-helpers.ts';

const NOW = new Date('2025-10-01T12:00:00Z');
const clock = () => NOW;

const CARD = {
  creditCardNumber: '5555 5555 5555 4444',
  creditCardExpiration: '1029',
  creditCardCode: '123',
};
const BILLING = {
  billingFirstName: 'Pat',
  billingLastName: 'Dealer',
  billingAddress1: '1 Main St',
  billingAddress2: '',
  billingCity: 'Monterrey',
  billingCountry: 'MX',
  billingState: 'NL',
  billingZip: '64000',
};

describe('billing form (000 §5)', () => {
  const schema = createBillingFormSchema(clock);

  it('same address needs only the card', () => {
    expect(schema.safeParse({ sameAddresses: true, ...CARD }).success).toBe(true);
    expect(schema.safeParse({ sameAddresses: false, ...CARD, ...BILLING }).success).toBe(true);
  });

  it.each([
    ['billingFirstName', 'Billing first name is required.'],
    ['billingLastName', 'Billing last name is required.'],
    ['billingCountry', 'Billing country is required.'],
    ['billingAddress1', 'Billing address is required.'],
    ['billingCity', 'Billing city is required.'],
    ['billingState', 'Billing state is required.'],
    // 000 §5: '{label} is required.'; 'Valid billing postal code is required.' is for a wrong one.
    ['billingZip', 'Billing postal code is required.'],
  ])('unchecked, %s empty → %s', (field, message) => {
    const values = { sameAddresses: false, ...CARD, ...BILLING, [field]: '' };
    if (field === 'billingCountry') values.billingZip = '';
    expect(issuesOf(schema, values)[field]).toBe(message);
  });

  it('a postal code that does not fit the country → the valid-postal-code text', () => {
    const values = { sameAddresses: false, ...CARD, ...BILLING, billingZip: '6400' };
    expect(issuesOf(schema, values).billingZip).toBe('Valid billing postal code is required.');
  });

  it.each([
    ['creditCardNumber', '', 'Credit card number is required.'],
    ['creditCardCode', '', 'CVV is required.'],
    ['creditCardCode', '12', 'CVV must be at least 3 characters.'],
    ['creditCardExpiration', '', 'Expiration date is required.'],
    ['creditCardExpiration', '10/2', 'Expiration date must be four digits (MM/YY).'],
    ['creditCardExpiration', '0925', 'Expiration date must be a future date.'],
  ])('%s = %j → %s', (field, value, message) => {
    expect(issuesOf(schema, { sameAddresses: true, ...CARD, [field]: value })[field]).toBe(message);
  });

  it('the same-address box (000 §4)', () => {
    const account = {
      firstName: 'PAT',
      lastName: 'dealer',
      address1: '1 Main St',
      city: 'Monterrey',
      country: 'MX',
      state: 'NL',
      zip: '64000',
    };
    expect(billingMatchesAccount(BILLING, account)).toBe(true);
    expect(billingMatchesAccount({ ...BILLING, billingCity: 'Puebla' }, account)).toBe(false);
    expect(billingFromAccount(account).billingFirstName).toBe('PAT');
    expect(billingFromAccount({ country: 'FR' }).billingCountry).toBe('');
    expect(EMPTY_BILLING_ADDRESS.billingCity).toBe('');
  });
});

describe('payment profile and reactivation requests (000 §7, R4, R5)', () => {
  const token = {
    paymentToken: 'tok',
    cardBrand: 'mastercard',
    cardLast4: '4444',
    creditCardExpiration: '1029',
  };

  it('needs a token and billing', () => {
    const schema = createPaymentProfileRequestSchema(clock);
    // A card update carries its request key (docs/decisions/038); without one it is refused.
    const requestKey = '6f1c2b9e-4d0a-4c3e-9b7a-2f5e8d1c0a34';
    expect(schema.safeParse({ ...token, ...BILLING, requestKey }).success).toBe(true);
    expect(issuesOf(schema, { ...token, ...BILLING }).requestKey).toBe(
      'The request is not valid. Please reload the page.',
    );
    expect(issuesOf(schema, { ...BILLING, requestKey }).paymentToken).toBe(
      'Credit card number is required.',
    );
    expect(issuesOf(schema, { ...token, requestKey }).billingCity).toBe(
      'Billing city is required.',
    );
  });

  it('reactivation may carry no card (pending cancel) but a card must be complete', () => {
    const schema = createReactivateRequestSchema(clock);
    const requestKey = '6f1c2b9e-4d0a-4c3e-9b7a-2f5e8d1c0a34';
    expect(schema.safeParse({ requestKey }).success).toBe(true);
    expect(schema.safeParse({ ...token, ...BILLING, requestKey }).success).toBe(true);
    expect(
      issuesOf(schema, { ...token, creditCardExpiration: '0125', ...BILLING, requestKey })
        .creditCardExpiration,
    ).toBe('Expiration date must be a future date.');
  });

  it('reactivation always carries its request key (docs/decisions/038)', () => {
    const schema = createReactivateRequestSchema(clock);
    expect(issuesOf(schema, {}).requestKey).toBe(
      'The request is not valid. Please reload the page.',
    );
    expect(issuesOf(schema, { requestKey: 'again' }).requestKey).toBe(
      'The request is not valid. Please reload the page.',
    );
  });
});

const PROFILE = {
  firstName: 'Pat',
  lastName: 'Dealer',
  dealership: 'Pat Motors',
  email: 'pat@example.com',
  altEmail: '',
  phone: '5551234567',
  altPhone: '',
  address1: '1 Main St',
  city: 'Albany',
  country: 'US',
  state: 'NY',
  zip: '12207',
  auctionAccessId: '',
  dealershipAuctionAccessId: '',
};

describe('profile (000 §5)', () => {
  it('accepts the profile', () => {
    expect(ZProfileFormSchema.safeParse(PROFILE).success).toBe(true);
  });

  it.each([
    ['email', '', 'Please enter a valid email address'],
    ['email', 'a@b.com', 'Please enter a valid email address'],
    ['altEmail', 'nope', 'Please enter a valid email address'],
    ['phone', '555-123-4567', 'Valid 10 digit phone number is required'],
    ['altPhone', '123', 'Valid 10 digit phone number is required'],
    ['address1', '', 'Address is required.'],
    ['city', '', 'City is required.'],
    ['country', '', 'Country is required.'],
    ['dealership', '', 'Dealership is required.'],
    ['firstName', '', 'First name is required.'],
    ['lastName', '', 'Last name is required.'],
    ['state', '', 'State is required.'],
    ['zip', '', 'Zip is required.'],
    ['auctionAccessId', '12345678', 'Must enter a valid Auction Access Id'],
    ['dealershipAuctionAccessId', '4123456', 'Must enter a valid Dealership Auction Access Id'],
  ])('%s = %j → %s', (field, value, message) => {
    expect(issuesOf(ZProfileFormSchema, { ...PROFILE, [field]: value })[field]).toBe(message);
  });

  it('the update request keeps absent keys absent and checks AutoCheck unless told not to', () => {
    expect(
      ZUpdateCurrentUserRequestSchema.parse({ verifyAutoCheckCredentials: false, firstName: 'x' }),
    ).toEqual({
      verifyAutoCheckCredentials: false,
    });
    expect(ZUpdateCurrentUserRequestSchema.parse({ altEmail: '', altPhone: '5551234567' })).toEqual(
      {
        altEmail: '',
        altPhone: '5551234567',
      },
    );
    expect(issuesOf(ZUpdateCurrentUserRequestSchema, { altEmail: 'bad' }).altEmail).toBe(
      'Alternate email not valid.',
    );
    expect(
      issuesOf(ZUpdateCurrentUserRequestSchema, { autoCheckAutoPurchase: true }).autoCheckId,
    ).toBe('AutoCheck ID is required.');
    expect(
      ZUpdateCurrentUserRequestSchema.safeParse({
        verifyAutoCheckCredentials: false,
        autoCheckAutoPurchase: true,
      }).success,
    ).toBe(true);
  });
});

describe('AutoCheck (000 §5, R7)', () => {
  it('nothing set: nothing required', () => {
    expect(ZAutoCheckFormSchema.safeParse({}).success).toBe(true);
    expect(autoCheckInUse({})).toBe(false);
  });

  it.each([
    [{ autoCheckId: 'id' }, 'autoCheckPasswd', 'AutoCheck password is required.'],
    [{ autoCheckPasswd: 'pw' }, 'autoCheckId', 'AutoCheck ID is required.'],
    [{ autoCheckEnabled: true }, 'autoCheckId', 'AutoCheck ID is required.'],
    [
      { autoCheckAutoPurchase: true, autoCheckId: 'id', autoCheckPasswd: 'pw' },
      'autoCheckEnabled',
      'You must agree to the AutoCheck integration terms.',
    ],
  ])('%j → %s: %s', (values, field, message) => {
    expect(issuesOf(ZAutoCheckFormSchema, values)[field]).toBe(message);
  });

  it('a stored password may stay blank', () => {
    expect(
      ZAutoCheckFormSchema.safeParse({
        autoCheckId: 'id',
        autoCheckEnabled: true,
        autoCheckPasswdSet: true,
      }).success,
    ).toBe(true);
  });

  it('log note (000 §7)', () => {
    expect(autoPurchaseLogMessage(true)).toBe('AutoCheck auto-purchase enabled');
    expect(autoPurchaseLogMessage(false)).toBe('AutoCheck auto-purchase disabled');
  });
});

describe('cancellation (000 §3, §4, §5, §9)', () => {
  it('nine reasons, two needing detail', () => {
    expect(CANCELLATION_REASONS).toHaveLength(9);
    expect(CANCELLATION_REASONS.filter(needsDetail)).toEqual([
      'changing-vendor',
      'not-enough-data',
    ]);
  });

  it.each([
    [{}, 'cancellationReason', 'Please select a cancellation reason.'],
    [
      { cancellationReason: 'changing-vendor' },
      'userProvidedCancelReason',
      'Please tell us more (5 to 250 characters).',
    ],
    [
      { cancellationReason: 'not-enough-data', userProvidedCancelReason: 'abcd' },
      'userProvidedCancelReason',
      'Please enter at least 5 characters.',
    ],
    [
      { cancellationReason: 'too-expensive', userProvidedCancelReason: 'x'.repeat(251) },
      'userProvidedCancelReason',
      'Please enter at most 250 characters.',
    ],
  ])('%j → %s: %s', (values, field, message) => {
    expect(issuesOf(ZCancelSubscriptionFormSchema, values)[field]).toBe(message);
  });

  it('valid forms and the request', () => {
    const form = ZCancelSubscriptionFormSchema.parse({
      cancellationReason: 'changing-vendor',
      userProvidedCancelReason: ' abcde ',
    });
    expect(toCancelSubscriptionRequest(form)).toEqual({
      cancellationReasonOptions: ['changing-vendor'],
      userProvidedCancelReason: 'abcde',
    });
    expect(
      ZCancelSubscriptionFormSchema.safeParse({ cancellationReason: 'too-expensive' }).success,
    ).toBe(true);
    expect(
      ZCancelSubscriptionRequestSchema.safeParse(toCancelSubscriptionRequest(form)).success,
    ).toBe(true);
    expect(
      issuesOf(ZCancelSubscriptionRequestSchema, { cancellationReasonOptions: [] })
        .cancellationReasonOptions,
    ).toBe('Please select a cancellation reason.');
    expect(
      ZCancelSubscriptionRequestSchema.safeParse({
        cancellationReasonOptions: ['too-expensive', 'closing-business'],
      }).success,
    ).toBe(false);
    expect(
      issuesOf(ZCancelSubscriptionRequestSchema, { cancellationReasonOptions: ['not-enough-data'] })
        .userProvidedCancelReason,
    ).toBe('Please tell us more (5 to 250 characters).');
    expect(remainingCharacters('abc')).toBe(247);
  });
});

describe('payment history requests (000 §7, R9)', () => {
  it.each([
    ['2025', 2025],
    ['2020', 2020],
  ])('year %s', (year, out) => {
    expect(ZPaymentHistoryQuerySchema.parse({ year }).year).toBe(out);
  });
  it.each([['2019'], ['abc'], ['2025.5']])('refuses year %s', (year) => {
    expect(ZPaymentHistoryQuerySchema.safeParse({ year }).success).toBe(false);
  });

  const pdf = 'JVBERi0xLjQK'; // '%PDF-1.4\n'
  it('pdf zip within limits', () => {
    expect(
      ZPdfZipRequestSchema.safeParse({
        zipFilename: '2025-payments-history.zip',
        pdfBlobs: [{ filename: '2025-01-05-payment.pdf', data: pdf }],
      }).success,
    ).toBe(true);
    expect(base64DecodedLength(pdf)).toBe(9);
    expect(base64DecodedLength('QQ==')).toBe(1);
    expect(base64DecodedLength('QUI=')).toBe(2);
  });

  it.each([
    ['unsafe zip name', { zipFilename: '../x.zip', pdfBlobs: [{ filename: 'a.pdf', data: pdf }] }],
    ['not a pdf', { zipFilename: 'a.zip', pdfBlobs: [{ filename: 'a.pdf', data: 'QUJDRA==' }] }],
    ['not a pdf name', { zipFilename: 'a.zip', pdfBlobs: [{ filename: 'a.exe', data: pdf }] }],
    [
      'too many',
      {
        zipFilename: 'a.zip',
        pdfBlobs: Array.from({ length: 25 }, (_, i) => ({ filename: `${i}.pdf`, data: pdf })),
      },
    ],
    ['none', { zipFilename: 'a.zip', pdfBlobs: [] }],
    [
      'duplicate names',
      {
        zipFilename: 'a.zip',
        pdfBlobs: [
          { filename: 'a.pdf', data: pdf },
          { filename: 'a.pdf', data: pdf },
        ],
      },
    ],
    [
      'too large',
      {
        zipFilename: 'a.zip',
        pdfBlobs: Array.from({ length: 2 }, (_, i) => ({
          filename: `${i}.pdf`,
          data: pdf + 'A'.repeat(8_000_000),
        })),
      },
    ],
  ])('refuses %s', (_name, body) => {
    expect(ZPdfZipRequestSchema.safeParse(body).success).toBe(false);
  });

  it('safe names', () => {
    expect(isSafeFileName('2025-01-05-payment.pdf', '.pdf')).toBe(true);
    expect(isSafeFileName('.hidden.pdf', '.pdf')).toBe(false);
    expect(isSafeFileName('a/b.pdf', '.pdf')).toBe(false);
    expect(isSafeFileName('a..pdf', '.pdf')).toBe(false);
  });
});

describe('e-mail path parameter (001 §7)', () => {
  it('validates', () => {
    expect(ZEmailParamSchema.safeParse({ email: 'pat@example.com' }).success).toBe(true);
    expect(issuesOf(ZEmailParamSchema, { email: 'nope' }).email).toBe('Email not valid.');
  });
});
