import { describe, expect, it } from 'vitest';
import { CONTACT_PHONE_COUNTRIES, CONTACT_QUERY_TYPES } from '../forms/contact.ts';
import { ZContactUsRequestSchema } from './contact.ts';

const VALID = {
  fullName: 'Pat Dealer',
  email: 'pat@example.com',
  phoneCountry: 'United States',
  phoneNumber: '5551234567',
  queryType: 'Sales',
  auctionAccessNumber: '',
  comments: 'Hello',
  recaptcha: 'token',
  source: 'Web',
};

function messageFor(input: Record<string, unknown>, path: string): string | undefined {
  const result = ZContactUsRequestSchema.safeParse(input);
  if (result.success) return undefined;
  return result.error.issues.find((issue) => issue.path.join('.') === path)?.message;
}

describe('ZContactUsRequestSchema (001 §3, §5)', () => {
  it('accepts a valid form and trims strings', () => {
    const parsed = ZContactUsRequestSchema.parse({
      ...VALID,
      fullName: '  Pat  ',
      comments: ' x ',
    });
    expect(parsed.fullName).toBe('Pat');
    expect(parsed.comments).toBe('x');
  });

  it('offers the five reasons and three phone countries', () => {
    expect(CONTACT_QUERY_TYPES).toEqual([
      'New Subscriber',
      'Account Update',
      'Technical Support',
      'Sales',
      'Other',
    ]);
    expect(CONTACT_PHONE_COUNTRIES).toEqual(['United States', 'Canada', 'Mexico']);
  });

  it.each([
    ['fullName', undefined, 'name is required.'],
    ['fullName', '   ', 'name is required.'],
    ['email', undefined, 'Invalid email address.'],
    ['email', 'not-an-email', 'Invalid email address.'],
    ['phoneCountry', undefined, 'phone country is required.'],
    ['phoneCountry', 'France', 'phone country is required.'],
    ['phoneNumber', undefined, 'phone number must be a valid 10 digit number.'],
    ['phoneNumber', '555-123-4567', 'phone number must be a valid 10 digit number.'],
    ['phoneNumber', '555123456', 'phone number must be a valid 10 digit number.'],
    ['queryType', undefined, 'Please select a reason for contacting us.'],
    ['auctionAccessNumber', '1234567890', 'auction access number must be up to 9 digits.'],
    ['auctionAccessNumber', '12a', 'auction access number must be up to 9 digits.'],
    ['comments', undefined, 'comments are required.'],
    ['comments', ' ', 'comments are required.'],
    ['comments', 'x'.repeat(2001), 'comments must be at most 2000 characters.'],
    ['recaptcha', undefined, 'reCAPTCHA required to prove you’re not a robot.'],
    ['recaptcha', '', 'reCAPTCHA required to prove you’re not a robot.'],
    ['source', 'App', 'source must be Web.'],
  ])('%s = %j → %s', (field, value, message) => {
    expect(messageFor({ ...VALID, [field]: value }, field)).toBe(message);
  });

  it.each([[''], ['123456789'], [undefined]])('auctionAccessNumber %j is allowed', (value) => {
    expect(
      ZContactUsRequestSchema.safeParse({ ...VALID, auctionAccessNumber: value }).success,
    ).toBe(true);
  });
});
