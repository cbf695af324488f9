import { describe, expect, it } from 'vitest';
import { ZSignupContactFormSchema, createSignupContactFormSchema } from './signup-contact.ts';
import {
  ZSignupSubscriptionsFormSchema,
  ZSubscriptionSelectionSchema,
} from './signup-subscriptions.ts';
import { ZSignupDealershipFormSchema } from './signup-dealership.ts';
import { billingRequired } from '../forms/signup.ts';
import { blankPaymentFieldsForPromo, createSignupPaymentFormSchema } from './signup-payment.ts';
import { buildSignupRequest, createSignupRequestSchema } from './signup-request.ts';
import type { TSignupFormValues } from './signup-request.ts';
import { ZSignupLeadRequestSchema, termsAcceptanceValue } from './signup-lead.ts';
import {
  ZSignupProgressParamsSchema,
  ZSignupStep1SaveRequestSchema,
  ZSignupStep2SaveRequestSchema,
} from './signup-progress.ts';
import { issuesOf } from './test-helpers.ts';

const NOW = new Date('2025-10-01T12:00:00Z');
const clock = () => NOW;

const PAGE1 = {
  firstName: 'Pat',
  lastName: 'Dealer',
  email: 'pat@example.com',
  phone: '555-123-4567',
  phoneCountryCode: 'US',
  dealership: 'Pat Motors',
  deviceType: 'iPhone',
  recaptcha: 'token',
  terms: true,
};

describe('sign-up page 1 (001 §5)', () => {
  it('accepts valid values', () => {
    expect(ZSignupContactFormSchema.safeParse(PAGE1).success).toBe(true);
    expect(ZSignupContactFormSchema.safeParse({ ...PAGE1, phone: '(555) 123-4567' }).success).toBe(
      true,
    );
  });

  it.each([
    ['firstName', '', 'First name is required.'],
    ['lastName', undefined, 'Last name is required.'],
    ['dealership', '  ', 'Dealership is required.'],
    ['email', '', 'Email is required.'],
    ['email', 'pat@example', 'Email must be a valid email address.'],
    ['email', 'a@b.com', 'Email must be at least 8 characters.'],
    ['email', `${'a'.repeat(250)}@x.com`, 'Email must be at most 254 characters.'],
    ['phone', '', 'Mobile phone number is required.'],
    ['phone', '5551234567', 'Mobile phone number must match the following pattern: XXX-XXX-XXXX.'],
    ['phoneCountryCode', undefined, 'Phone country code is required.'],
    ['deviceType', 'Windows', 'Device type is required.'],
    ['recaptcha', '', 'reCAPTCHA required to prove you’re not a robot.'],
    ['terms', false, 'You must agree to Terms of Use, Privacy, and Refund polices.'],
  ])('%s = %j → %s', (field, value, message) => {
    expect(issuesOf(ZSignupContactFormSchema, { ...PAGE1, [field]: value })[field]).toBe(message);
  });
});

describe('sign-up page 1 with the company e-mail domain (R1, issue 14.16)', () => {
  const schema = createSignupContactFormSchema({
    name: 'DealerPass',
    emailDomain: 'dealerpass.example',
  });

  it.each(['robin@dealerpass.example', 'robin@Sales.DealerPass.Example'])('refuses %s', (email) => {
    expect(issuesOf(schema, { ...PAGE1, email }).email).toBe(
      'Cannot create user with DealerPass email domain.',
    );
  });

  it('accepts other domains, even ones that end in the same letters', () => {
    expect(schema.safeParse({ ...PAGE1, email: 'robin@notdealerpass.example' }).success).toBe(true);
    expect(schema.safeParse(PAGE1).success).toBe(true);
  });
});

describe('sign-up page 2 (001 §5, R3)', () => {
  it.each([
    [[], 'At least one subscription is required.'],
    [undefined, 'At least one subscription is required.'],
    [['CF_S'], 'Please choose subscriptions from the list.'],
    [['GALVES', 'GALVES_S'], 'Please choose subscriptions from the list.'],
    [['NOPE'], 'Please choose subscriptions from the list.'],
  ])('%j → %s', (subscriptions, message) => {
    expect(issuesOf(ZSignupSubscriptionsFormSchema, { subscriptions }).subscriptions).toBe(message);
  });

  it('accepts a selection and an empty stored selection', () => {
    expect(
      ZSignupSubscriptionsFormSchema.safeParse({ subscriptions: ['CF', 'CF_S'] }).success,
    ).toBe(true);
    expect(ZSubscriptionSelectionSchema.safeParse([]).success).toBe(true);
  });
});

const PAGE3 = {
  auctionAccessId: '',
  dealershipAuctionAccessId: '',
  address1: '1 Main St',
  address2: '',
  country: 'US',
  state: 'NY',
  city: 'Albany',
  zip: '12207',
};

describe('sign-up page 3 (001 §5)', () => {
  it('accepts valid values, optional ids and a Canadian address without province', () => {
    expect(ZSignupDealershipFormSchema.safeParse(PAGE3).success).toBe(true);
    const ca = ZSignupDealershipFormSchema.parse({
      ...PAGE3,
      country: 'CA',
      state: '',
      zip: 'k1a 0b1',
    });
    expect(ca.zip).toBe('K1A 0B1');
    expect(
      ZSignupDealershipFormSchema.safeParse({
        ...PAGE3,
        auctionAccessId: '123456789',
        dealershipAuctionAccessId: '5123456',
      }).success,
    ).toBe(true);
  });

  it.each([
    ['auctionAccessId', '223456789', 'Must enter a valid Auction Access Id'],
    ['dealershipAuctionAccessId', '7123456', 'Must enter a valid Dealership Auction Access Id'],
    ['address1', '', 'Address is required.'],
    ['city', '', 'City is required.'],
    ['country', '', 'Country is required.'],
    ['state', '', 'State is required.'],
    ['state', 'ON', 'State is required.'],
    ['zip', '', 'Valid postal code is required.'],
    ['zip', '1234', 'Valid postal code is required.'],
  ])('%s = %j → %s', (field, value, message) => {
    expect(issuesOf(ZSignupDealershipFormSchema, { ...PAGE3, [field]: value })[field]).toBe(
      message,
    );
  });

  it('shows every missing field at once, the address rules included (issue 14.15)', () => {
    const issues = issuesOf(ZSignupDealershipFormSchema, {
      ...PAGE3,
      address1: '',
      city: '',
      state: '',
      zip: '',
    });
    expect(issues).toMatchObject({
      address1: 'Address is required.',
      city: 'City is required.',
      state: 'State is required.',
      zip: 'Valid postal code is required.',
    });
  });

  it('Canada calls the region Province', () => {
    expect(
      issuesOf(ZSignupDealershipFormSchema, {
        ...PAGE3,
        country: 'CA',
        state: 'NY',
        zip: 'K1A 0B1',
      }).state,
    ).toBe('Province is required.');
    expect(
      issuesOf(ZSignupDealershipFormSchema, { ...PAGE3, country: 'MX', state: '', zip: '01000' })
        .state,
    ).toBe('State is required.');
  });
});

const CARD = {
  creditCardNumber: '4111 1111 1111 1111',
  creditCardExpiration: '12/29',
  creditCardCode: '123',
};
const BILLING = {
  billingFirstName: 'Pat',
  billingLastName: 'Dealer',
  billingAddress1: '2 Side St',
  billingAddress2: '',
  billingCity: 'Toronto',
  billingCountry: 'CA' as const,
  billingState: 'ON',
  billingZip: 'M5V 3L9',
};

describe('sign-up page 4 (001 §4, §5)', () => {
  const schema = createSignupPaymentFormSchema(clock);

  it('card with same address', () => {
    const parsed = schema.parse({ ...CARD, sameAddresses: true, recaptcha: 'r' });
    expect(parsed.creditCardNumber).toBe('4111111111111111');
    expect(parsed.creditCardExpiration).toBe('1229');
  });

  it('valid promo without card needs no billing', () => {
    expect(
      schema.safeParse({
        promoCode: 'FREE',
        hasValidPromoCode: true,
        sameAddresses: false,
        recaptcha: 'r',
      }).success,
    ).toBe(true);
  });

  it.each([
    [{ promoCode: 'X', hasValidPromoCode: false }, 'promoCode', 'Invalid Promo Code.'],
    [
      {},
      'creditCardNumber',
      'To continue, enter your credit card information OR a valid promotional code.',
    ],
    [
      { ...CARD, creditCardNumber: '4111111111111112' },
      'creditCardNumber',
      'Credit card not valid.',
    ],
    [{ ...CARD, creditCardExpiration: '' }, 'creditCardExpiration', 'Expiration date is required.'],
    [
      { ...CARD, creditCardExpiration: '129' },
      'creditCardExpiration',
      'Expiration date must be four digits (MM/YY).',
    ],
    [
      { ...CARD, creditCardExpiration: '0925' },
      'creditCardExpiration',
      'Expiration date must be a future date.',
    ],
    [
      { ...CARD, creditCardCode: '' },
      'creditCardCode',
      'CVV is required when credit card number is present.',
    ],
    [{ ...CARD, creditCardCode: '12' }, 'creditCardCode', 'CVV must be at least 3 characters.'],
    [{ ...CARD, creditCardCode: '12a' }, 'creditCardCode', 'CVV must be 3 or 4 digits.'],
    [{ ...CARD, sameAddresses: false }, 'billingFirstName', 'Billing first name is required.'],
    [{ ...CARD, sameAddresses: false }, 'billingLastName', 'Billing last name is required.'],
    [{ ...CARD, sameAddresses: false }, 'billingAddress1', 'Billing address is required.'],
    [{ ...CARD, sameAddresses: false }, 'billingCity', 'Billing city is required.'],
    [{ ...CARD, sameAddresses: false }, 'billingCountry', 'Billing country is required.'],
    // 000 §5: an empty postal code is a required field's message; a wrong one is 'Valid …'.
    [{ ...CARD, sameAddresses: false }, 'billingZip', 'Billing postal code is required.'],
    [
      { ...CARD, sameAddresses: false, ...BILLING, billingCountry: 'US', billingState: '' },
      'billingState',
      'Billing state is required.',
    ],
    [
      { ...CARD, sameAddresses: false, ...BILLING, billingZip: 'D1A 1A1' },
      'billingZip',
      'Valid billing postal code is required.',
    ],
    [{ ...CARD, recaptcha: '' }, 'recaptcha', 'reCAPTCHA required to prove you’re not a robot.'],
  ])('%j → %s: %s', (values, field, message) => {
    expect(issuesOf(schema, { recaptcha: 'r', sameAddresses: true, ...values })[field]).toBe(
      message,
    );
  });

  it('billing is required when it differs and (no valid promo or a card)', () => {
    expect(billingRequired({ sameAddresses: false, hasValidPromoCode: false })).toBe(true);
    expect(billingRequired({ sameAddresses: false, hasValidPromoCode: true })).toBe(false);
    expect(
      billingRequired({ sameAddresses: false, hasValidPromoCode: true, creditCardNumber: '4' }),
    ).toBe(true);
    expect(billingRequired({ sameAddresses: true })).toBe(false);
    expect(
      schema.safeParse({ ...CARD, sameAddresses: false, ...BILLING, recaptcha: 'r' }).success,
    ).toBe(true);
  });

  it('a valid promo without card blanks card and billing fields (001 §4)', () => {
    const values = {
      promoCode: 'FREE',
      hasValidPromoCode: true,
      creditCardNumber: '',
      billingCity: 'X',
      creditCardCode: '1',
    };
    expect(blankPaymentFieldsForPromo(values)).toMatchObject({
      billingCity: '',
      creditCardCode: '',
      promoCode: 'FREE',
    });
    const withCard = { ...values, creditCardNumber: '4111' };
    expect(blankPaymentFieldsForPromo(withCard)).toBe(withCard);
  });
});

describe('final sign-up payload (001 §3, §7; R5)', () => {
  const schema = createSignupRequestSchema(clock);
  const form: TSignupFormValues = {
    ...PAGE1,
    phoneCountryCode: 'US',
    deviceType: 'iPhone',
    terms: true,
    subscriptions: ['NADA', 'CF'],
    ...PAGE3,
    country: 'US',
    ...CARD,
    promoCode: '',
    sameAddresses: true,
    recaptcha: 'r2',
  };
  const token = {
    paymentToken: 'tok_1',
    cardBrand: 'visa' as const,
    cardLast4: '1111',
    creditCardExpiration: '1229',
  };

  it('builds the payload: no card, phone digits, billing from profile', () => {
    const body = buildSignupRequest(form, token, 'https://app.example/login');
    expect(body).not.toHaveProperty('creditCardNumber');
    expect(body).not.toHaveProperty('creditCardCode');
    expect(body.phone).toBe('5551234567');
    expect(body.billingCity).toBe('Albany');
    const parsed = schema.parse(body);
    expect(parsed.billingZip).toBe('12207');
    expect(parsed.forwardTo).toBe('https://app.example/login');
  });

  it('keeps typed billing when the box is off, and fills it on the server when on', () => {
    const body = buildSignupRequest(
      { ...form, sameAddresses: false, ...BILLING },
      token,
      'https://a.example/',
    );
    expect(schema.parse(body).billingCity).toBe('Toronto');
    const unfilled = { ...buildSignupRequest(form, token, 'https://a.example/'), billingCity: '' };
    expect(schema.parse(unfilled).billingCity).toBe('Albany');
  });

  it('promotion code only', () => {
    const body = buildSignupRequest({ ...form, promoCode: 'FREE' }, null, 'https://a.example/');
    expect(schema.safeParse(body).success).toBe(true);
  });

  it.each([true, false])(
    'promotion code only, same-address box %s: the billing name and address are blank (001 §4)',
    (sameAddresses) => {
      const body = buildSignupRequest(
        {
          ...form,
          ...(sameAddresses ? {} : BILLING),
          sameAddresses,
          creditCardNumber: '',
          creditCardExpiration: '',
          creditCardCode: '',
          promoCode: 'FREE',
          hasValidPromoCode: true,
        },
        null,
        'https://a.example/',
      );
      const blank = {
        billingFirstName: '',
        billingLastName: '',
        billingCountry: '',
        billingAddress1: '',
        billingAddress2: '',
        billingCity: '',
        billingState: '',
        billingZip: '',
      };
      expect(body).toMatchObject(blank);
      // The server fills nothing in either.
      expect(schema.parse(body)).toMatchObject(blank);
    },
  );

  it.each([
    [
      { paymentToken: '' },
      'paymentToken',
      'Either a credit card, promotion code, or both are required.',
    ],
    [
      { creditCardExpiration: '0125' },
      'creditCardExpiration',
      'Expiration date must be a future date.',
    ],
    [{ cardLast4: '' }, 'cardLast4', 'Credit card not valid.'],
    [{ cardBrand: '' }, 'cardBrand', 'Credit card not valid.'],
    [
      { forwardTo: 'javascript:alert(1)' },
      'forwardTo',
      'forwardTo must be an absolute http(s) URL.',
    ],
    [
      { phone: '555' },
      'phone',
      'Mobile phone number must match the following pattern: XXX-XXX-XXXX.',
    ],
    [{ zip: 'ABCDE' }, 'zip', 'Valid postal code is required.'],
    [{ altEmail: 'bad' }, 'altEmail', 'Alternate email not valid.'],
    [{ terms: false }, 'terms', 'You must agree to Terms of Use, Privacy, and Refund polices.'],
  ])('%j → %s: %s', (patch, field, message) => {
    const body = { ...buildSignupRequest(form, token, 'https://a.example/'), ...patch };
    expect(issuesOf(schema, body)[field]).toBe(message);
  });
});

describe('lead and partial saves (001 §3, §7)', () => {
  const LEAD = {
    firstName: 'Pat',
    lastName: 'Dealer',
    email: 'pat@example.com',
    phone: '555-123-4567',
    dealershipName: 'Pat Motors',
    termAndCondition: termsAcceptanceValue(NOW),
    recaptcha: 'r',
  };

  it('lead', () => {
    expect(LEAD.termAndCondition).toBe('2025-10-01T12:00:00.000Z');
    expect(ZSignupLeadRequestSchema.parse(LEAD).phone).toBe('5551234567');
    expect(
      issuesOf(ZSignupLeadRequestSchema, { ...LEAD, termAndCondition: '' }).termAndCondition,
    ).toBe('You must agree to Terms of Use, Privacy, and Refund polices.');
    expect(issuesOf(ZSignupLeadRequestSchema, { ...LEAD, recaptcha: undefined }).recaptcha).toBe(
      'reCAPTCHA required to prove you’re not a robot.',
    );
  });

  it('step 1 and step 2', () => {
    const { recaptcha: _r, ...step1 } = LEAD;
    expect(
      ZSignupStep1SaveRequestSchema.parse({ ...step1, subscriptionSelection: ['NADA'] })
        .subscriptionSelection,
    ).toEqual(['NADA']);
    const step2 = ZSignupStep2SaveRequestSchema.parse({
      ...step1,
      dealershipCountry: 'CA',
      dealershipPostalCode: 'k1a 0b1',
    });
    expect(step2.dealershipPostalCode).toBe('K1A 0B1');
    expect(
      ZSignupStep2SaveRequestSchema.safeParse({ ...step1, userAuctionAccessId: '2' }).success,
    ).toBe(false);
  });

  it('params', () => {
    expect(ZSignupProgressParamsSchema.safeParse({ leadID: 'abc-123', step: '2' }).success).toBe(
      true,
    );
    expect(ZSignupProgressParamsSchema.safeParse({ leadID: '../x', step: '1' }).success).toBe(
      false,
    );
    expect(ZSignupProgressParamsSchema.safeParse({ leadID: 'a', step: '3' }).success).toBe(false);
  });
});
