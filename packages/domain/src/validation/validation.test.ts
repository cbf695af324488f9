import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AUCTION_ACCESS_ID_PATTERN,
  isAuctionAccessId,
  isDealershipAuctionAccessId,
  normalizeAuctionAccessId,
} from './auction-access.ts';
import {
  acceptedCardInput,
  detectCardType,
  isValidCardNumber,
  isValidCvv,
  lastFour,
  maskCardNumber,
  passesLuhn,
} from './card.ts';
import { emailDomain, isCompanyEmail, isValidEmail } from './email.ts';
import { isExpiryFormat, isExpiryInFuture, normalizeExpiry } from './expiry.ts';
import { isValidPassword } from './password.ts';
import {
  formatPhoneForDisplay,
  formatPhoneInput,
  isSignupPhone,
  isTenDigitPhone,
  normalizePhone,
} from './phone.ts';
import { digitsOnly, invalidMessage, isBlank, requiredMessage, stripWhitespace } from './text.ts';
import { findRawCardData } from './raw-card-data.ts';

describe('e-mail (000 §5, 001 §5, §9: 8 to 254)', () => {
  it.each([
    ['pat@example.com', true],
    ['a@b.co', false], // 6 characters
    ['ab@cd.com', true],
    [`${'a'.repeat(243)}@example.com`, false], // 255
    [`${'a'.repeat(242)}@example.com`, true], // 254
    ['no-at-sign.com', false],
    ['pat@localhost', false],
    ['pat @example.com', false],
  ])('%s → %s', (email, ok) => {
    expect(isValidEmail(email)).toBe(ok);
  });

  it('company domain (001 §6, R1)', () => {
    expect(emailDomain('x@Mail.DealerPass.example')).toBe('mail.dealerpass.example');
    expect(emailDomain('nope')).toBe('');
    expect(isCompanyEmail('x@dealerpass.example', 'dealerpass.example')).toBe(true);
    expect(isCompanyEmail('x@mail.dealerpass.example', 'DealerPass.example')).toBe(true);
    expect(isCompanyEmail('x@notdealerpass.example', 'dealerpass.example')).toBe(false);
  });
});

describe('password (001 §5)', () => {
  it.each([
    ['Passw0rd!', true],
    ['Pa0!aaaa', true],
    ['Pa0!aaa', false], // 7
    ['password0!', false], // no upper
    ['PASSWORD0!', false], // no lower
    ['Password!!', false], // no digit
    ['Password00', false], // no special
    ['Pass word0!', false], // space
  ])('%s → %s', (password, ok) => {
    expect(isValidPassword(password)).toBe(ok);
  });
});

describe('phone (000 §5, 001 §5, §9)', () => {
  it.each([
    ['555-123-4567', true],
    ['(555) 123-4567', true],
    ['(555)123-4567', true],
    ['5551234567', false],
    ['555-1234-567', false],
    ['1-555-123-4567', false],
  ])('sign-up pattern %s → %s', (phone, ok) => {
    expect(isSignupPhone(phone)).toBe(ok);
  });

  it.each([
    ['5551234567', true],
    ['555123456', false],
    ['555-123-4567', false],
  ])('ten digits %s → %s', (phone, ok) => {
    expect(isTenDigitPhone(phone)).toBe(ok);
  });

  it('normalizes and formats', () => {
    expect(normalizePhone('(555) 123-4567')).toBe('5551234567');
    expect(formatPhoneInput('555')).toBe('555');
    expect(formatPhoneInput('55512')).toBe('555-12');
    expect(formatPhoneInput('555123456789')).toBe('555-123-4567');
    expect(formatPhoneInput('555-123-4567').length).toBe(12);
  });

  it.each([
    ['3135550142', '(313) 555-0142'],
    ['313-555-0142', '(313) 555-0142'],
    ['(313) 555-0142', '(313) 555-0142'],
    ['31355501', '31355501'],
    ['1-313-555-0142', '1-313-555-0142'],
    ['', ''],
  ])('shows %j as %j', (stored, shown) => {
    expect(formatPhoneForDisplay(stored)).toBe(shown);
  });

  it('keeps the ten digits of any ten-digit phone, in order', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{10}$/), (digits) => {
        const shown = formatPhoneForDisplay(digits);
        expect(shown).toMatch(/^\(\d{3}\) \d{3}-\d{4}$/);
        expect(normalizePhone(shown)).toBe(digits);
      }),
    );
  });
});

describe('AuctionACCESS ids (000 §5, §9; 001 §5, §9)', () => {
  it.each([
    ['100000000', true],
    ['123456789', true],
    ['223456789', false],
    ['12345678', false],
    ['1234567890', false],
  ])('user id %s → %s', (id, ok) => {
    expect(isAuctionAccessId(id)).toBe(ok);
  });

  it.each([
    ['5000000', true],
    ['6123456', true],
    ['7123456', false],
    ['512345', false],
    ['51234567', false],
  ])('dealership id %s → %s', (id, ok) => {
    expect(isDealershipAuctionAccessId(id)).toBe(ok);
  });

  it.each([
    [0, ''],
    ['0', ''],
    [null, ''],
    [undefined, ''],
    [123456789, '123456789'],
    [' 5123456 ', '5123456'],
  ])('normalize %j → %j (000 §3: 0 becomes empty)', (value, out) => {
    expect(normalizeAuctionAccessId(value)).toBe(out);
  });

  it('property: every 9-digit number starting with 1 is valid', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100000000, max: 199999999 }), (n) => {
        expect(AUCTION_ACCESS_ID_PATTERN.test(String(n))).toBe(true);
      }),
    );
  });
});

describe('cards (000 §5, 001 §5)', () => {
  it.each([
    ['4111111111111111', 'visa', true],
    ['4111 1111 1111 1111', 'visa', true],
    ['4222222222222', 'visa', true],
    ['5555555555554444', 'mastercard', true],
    ['2223003122003222', 'mastercard', true],
    ['378282246310005', 'amex', true],
    ['6011111111111117', 'discover', true],
    ['6221260000000000', 'discover', true],
    ['4111111111111112', 'visa', false],
    ['3782822463100', 'amex', false],
    ['9999999999999995', null, false],
  ])('%s is %s, valid %s', (number, type, ok) => {
    expect(detectCardType(number)).toBe(type);
    expect(isValidCardNumber(number)).toBe(ok);
  });

  it('Luhn', () => {
    expect(passesLuhn('79927398713')).toBe(true);
    expect(passesLuhn('79927398710')).toBe(false);
    expect(passesLuhn('abc')).toBe(false);
  });

  it.each([
    ['123', true],
    ['1234', true],
    ['12', false],
    ['12345', false],
    [' 12 3 ', true],
    ['12a', false],
  ])('CVV %s → %s (000 §5: 3, max 4)', (cvv, ok) => {
    expect(isValidCvv(cvv)).toBe(ok);
  });

  it('last four and mask', () => {
    expect(lastFour('4111 1111 1111 1234')).toBe('1234');
    expect(maskCardNumber('1234')).toBe('**** 1234');
  });
});

describe('what the card inputs accept as typed (000 §5)', () => {
  it.each([
    ['creditCardNumber', '4111 abcd 1111-1111.1111', '4111  111111111111'],
    ['creditCardNumber', '4111 1111', '4111 1111'],
    ['creditCardExpiration', '1a2/3x0', '12/30'],
    ['creditCardExpiration', '12-30', '1230'],
  ] as const)('%s: %j → %j', (field, typed, kept) => {
    expect(acceptedCardInput(field, typed)).toBe(kept);
  });
});

describe('expiry MMYY (000 §5, 001 §5)', () => {
  const now = new Date('2025-06-15T12:00:00Z');
  it.each([
    ['0625', true, true],
    ['06/25', true, true],
    ['0525', true, false],
    ['1299', true, true],
    ['1325', false, false],
    ['0025', false, false],
    ['625', false, false],
    ['06/2025', false, false],
  ])('%s format %s, future %s', (value, format, future) => {
    expect(isExpiryFormat(value)).toBe(format);
    expect(isExpiryInFuture(value, now)).toBe(future);
  });

  it('the month ends at midnight in the given zone', () => {
    const lateJuneUtc = new Date('2025-07-01T02:00:00Z'); // still 30 June in New York
    expect(isExpiryInFuture('0625', lateJuneUtc)).toBe(false);
    expect(isExpiryInFuture('0625', lateJuneUtc, 'America/New_York')).toBe(true);
  });

  it('normalizes', () => {
    expect(normalizeExpiry(' 12 / 27 ')).toBe('1227');
  });
});

describe('text helpers', () => {
  it('messages', () => {
    expect(requiredMessage('Billing city')).toBe('Billing city is required.');
    expect(invalidMessage('Auction Access Id')).toBe('Must enter a valid Auction Access Id');
  });
  it('whitespace and digits (000 §5: card fields stripped on blur)', () => {
    expect(stripWhitespace(' 4111 1111\t1111 1111 ')).toBe('4111111111111111');
    expect(digitsOnly('(555) 123-4567')).toBe('5551234567');
    expect(isBlank('  ')).toBe(true);
    expect(isBlank(null)).toBe(true);
    expect(isBlank('x')).toBe(false);
  });
});

describe('raw card data (DECISIONS R5)', () => {
  it.each([
    [{ creditCardNumber: '4111111111111111' }, 'creditCardNumber'],
    [{ creditCardCode: '123' }, 'creditCardCode'],
    [{ payment: { cvv: 123 } }, 'payment.cvv'],
    [{ card_number: 4111111111111111 }, 'card_number'],
    [{ cardInfo: '4111 1111 1111 1111' }, 'cardInfo'],
    [[{ CVC: '999' }], '0.CVC'],
  ])('finds %j at %s', (body, path) => {
    expect(findRawCardData(body)).toBe(path);
  });

  it.each([
    [{ creditCardNumber: 'XXXX1111' }],
    [{ creditCardCode: '' }],
    [{ creditCardCode: null }],
    [{ cardLast4: '1111', paymentToken: 'tok_123', company: '12345678901234' }],
    ['4111111111111111'],
    [null],
  ])('allows %j', (body) => {
    expect(findRawCardData(body)).toBeNull();
  });
});
