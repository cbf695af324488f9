import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZCreateStaffMemberRequestSchema } from '../admin/staff-members.ts';
import {
  ZAccountSearchQuerySchema,
  ZCreatePromotionRequestSchema,
} from '../admin/console-requests.ts';
import { ZTotpCodeRequestSchema } from '../admin/totp.ts';
import { COUNTRY_LIST, isRegionOf, isValidPostalCode } from '../geo/countries.ts';
import { CALENDAR_DATE_PATTERN, parseIsoDate } from '../time/calendar-date.ts';
import { isExpiryFormat, normalizeExpiry } from '../validation/expiry.ts';
import { isValidPassword } from '../validation/password.ts';
import { ZPaymentTokenFieldsSchema, ZStoredCardFieldsSchema } from './billing-fields.ts';
import { addressJsonSchema, optionalEmailField } from './fields.ts';
import { ZNewPasswordFieldsSchema } from './identity.ts';
import {
  LOWER_CASED_TO_ASCII,
  UPPER_CASED_TO_ASCII,
  trimmedLengthPattern,
  upperCasedText,
} from './json-schema.ts';
import {
  PDF_BASE64_PATTERN,
  WINDOWS_DEVICE_NAME_PATTERN,
  ZPdfZipRequestSchema,
} from './payment-history.ts';
import { ZUpdateCurrentUserRequestSchema } from './profile.ts';
import { auctionAccessIdField, dealershipAuctionAccessIdField } from './signup-dealership.ts';
import { FORWARD_TO_PATTERN, ZForwardToSchema } from './signup-request.ts';

/**
 * The JSON Schema words of docs/decisions/053 say what the zod rule says: for each string rule,
 * the schema zod emits (`toJSONSchema`, as the API description gets it) is judged here as a JSON
 * Schema validator would (patterns with the `u` flag, lengths in code points) and must agree with
 * the zod schema on generated texts. Rules between fields are checked against the server by
 * `openapi-boundaries.test.ts` with a real validator (Ajv).
 */

interface IStringSchema {
  type?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  allOf?: IStringSchema[];
  not?: IStringSchema;
  default?: unknown;
}

/** What a JSON Schema 2020-12 validator says of a string against the keywords used here. */
function meets(schema: IStringSchema, value: string): boolean {
  const length = [...value].length;
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) return false;
  if (schema.minLength !== undefined && length < schema.minLength) return false;
  if (schema.maxLength !== undefined && length > schema.maxLength) return false;
  if (schema.allOf && !schema.allOf.every((part) => meets(part, value))) return false;
  if (schema.not && meets(schema.not, value)) return false;
  return true;
}

const KNOWN = new Set([
  'type',
  'pattern',
  'minLength',
  'maxLength',
  'allOf',
  'not',
  'default',
  'examples',
  'description',
  'format',
  '$schema',
]);

/** The input JSON Schema zod writes for a string field, with no keyword `meets` cannot judge. */
function jsonOf(schema: z.ZodType): IStringSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as IStringSchema;
  expect(Object.keys(json).filter((key) => !KNOWN.has(key))).toEqual([]);
  return json;
}

/** Characters a rule's edge cases are made of: spaces, case, digits, punctuation, look-alikes. */
const CHARACTERS = [
  ...'aAbBzZsSiIkKfFlLtT0189 \t\n/-_.!@+#%=',
  '\u00a0',
  '\u2028',
  ...Object.keys(UPPER_CASED_TO_ASCII),
  ...Object.keys(LOWER_CASED_TO_ASCII),
  '\u00e9',
];

function textOf(characters: readonly string[], maxLength: number) {
  return fc.string({ unit: fc.constantFrom(...characters), maxLength });
}

/** zod and the emitted JSON Schema agree on every generated text (and on the given ones). */
function expectAgreement(
  schema: z.ZodType,
  texts: fc.Arbitrary<string>,
  given: readonly string[] = [],
  numRuns = 2000,
) {
  const json = jsonOf(schema);
  const check = (value: string) => {
    expect({ value, accepted: meets(json, value) }).toEqual({
      value,
      accepted: schema.safeParse(value).success,
    });
  };
  given.forEach(check);
  fc.assert(fc.property(texts, check), { numRuns });
}

describe('upper and lower case (json-schema.ts)', () => {
  it('lists every character outside ASCII whose upper case is ASCII letters, and none more', () => {
    const found: Record<string, string> = {};
    const lower: Record<string, string> = {};
    for (let code = 0x80; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      const upper = char.toUpperCase();
      if (/^[A-Z0-9_-]+$/.test(upper)) found[char] = upper;
      if (/^[a-z0-9_-]+$/.test(char.toLowerCase())) lower[char] = char.toLowerCase();
    }
    expect(found).toEqual(UPPER_CASED_TO_ASCII);
    expect(lower).toEqual(LOWER_CASED_TO_ASCII);
  });

  it('upperCasedText matches exactly the texts whose upper case is the code', () => {
    for (const code of ['FL', 'IS', 'ST', 'NFL', 'AB1']) {
      const pattern = new RegExp(`^${upperCasedText(code)}$`, 'u');
      fc.assert(
        fc.property(textOf(CHARACTERS, 4), (text) => {
          expect(pattern.test(text)).toBe(text.toUpperCase() === code);
        }),
        { numRuns: 3000 },
      );
      expect(pattern.test(code.toLowerCase())).toBe(true);
    }
    expect(new RegExp(`^${upperCasedText('FL')}$`, 'u').test('\ufb02')).toBe(true);
  });
});

describe('trimmed lengths', () => {
  it('trimmedLengthPattern counts the trimmed text', () => {
    for (const [min, max] of [
      [0, 1],
      [0, 3],
      [1, 1],
      [1, 5],
      [2, 6],
      [3, 7],
    ] as const) {
      const pattern = new RegExp(trimmedLengthPattern(min, max), 'u');
      fc.assert(
        fc.property(textOf(CHARACTERS, 10), (text) => {
          const length = text.trim().length;
          expect(pattern.test(text)).toBe(length >= min && length <= max);
        }),
        { numRuns: 2000 },
      );
    }
  });

  it('the account search text', () => {
    const q = ZAccountSearchQuerySchema.shape.q;
    expectAgreement(q, textOf(CHARACTERS, 8), [
      '  ab  ',
      ' a ',
      'x'.repeat(100),
      ` ${'x'.repeat(100)} `,
    ]);
    expectAgreement(q, textOf(['a', ' '], 110), [], 300);
  });
});

describe('single-field rules', () => {
  it('a new password (001 §5) and its confirmation', () => {
    const characters = [...'aZ09!_ ', '\t', '\u00e9'];
    const passwords = fc.oneof(
      textOf(characters, 12),
      fc.string({ unit: fc.constantFrom(...characters), minLength: 120, maxLength: 135 }),
    );
    const given = ['Str0ng!Passw0rd', 'Aa1!aaaa', 'Aa1!aaa', 'Aa1!aaa a', 'AAAA1111!!!!'];
    expectAgreement(ZNewPasswordFieldsSchema.shape.password, passwords, given);
    fc.assert(
      fc.property(passwords, (value) => {
        expect(meets(jsonOf(ZNewPasswordFieldsSchema.shape.confirmPassword), value)).toBe(
          isValidPassword(value),
        );
      }),
    );
    const staff = ZCreateStaffMemberRequestSchema.shape.password.unwrap();
    expectAgreement(staff, passwords, given, 500);
  });

  it('the staff e-mail, trimmed and lower-cased', () => {
    const characters = [...'ab.Z_+-@ ', "'", '\u212a', 'k', '\u00e9'];
    const emails = fc.oneof(
      textOf(characters, 14),
      fc
        .tuple(textOf([...'ab._+-K\u212a'], 8), textOf([...'ab.-'], 6), textOf([...'cdK\u212a'], 4))
        .map(([local, domain, top]) => ` ${local}@${domain}.${top} `),
    );
    expectAgreement(ZCreateStaffMemberRequestSchema.shape.email, emails, [
      'pat@example.com',
      '  Pat@Example.COM ',
      '.pat@example.com',
      'p..t@example.com',
      `${'a'.repeat(242)}@example.com`,
      `${'a'.repeat(243)}@example.com`,
    ]);
  });

  it('an optional e-mail, an optional phone, AuctionACCESS ids', () => {
    const emailCharacters = [...'ab.@ -Zc', '\t'];
    expectAgreement(optionalEmailField('bad'), textOf(emailCharacters, 14), [
      '',
      '   ',
      ' a@bc.de ',
      'ab@cd.ef',
      `${'a'.repeat(244)}@example.com`,
      `${'a'.repeat(242)}@example.com`,
    ]);
    const altEmail = ZUpdateCurrentUserRequestSchema.shape.altEmail.unwrap();
    expectAgreement(altEmail, textOf(emailCharacters, 14), ['', ' pat@example.com ']);
    const digits = [...'0123456789 a', '\t'];
    const altPhone = ZUpdateCurrentUserRequestSchema.shape.altPhone.unwrap();
    expectAgreement(altPhone, textOf(digits, 13), ['', ' 3135550100 ', '313555010']);
    expectAgreement(auctionAccessIdField(), textOf([...'1567890 '], 11), ['', ' 123456789 ']);
    expectAgreement(dealershipAuctionAccessIdField(), textOf([...'1567890 '], 9), [' 5123456 ']);
  });

  it('the second-factor code, spaces anywhere', () => {
    expectAgreement(ZTotpCodeRequestSchema.shape.code, textOf([...'0123456789 a', '\t'], 9), [
      '123456',
      ' 123 456 ',
      '12345',
      '1234567',
    ]);
  });

  it('a new promotion code, trimmed, in either case', () => {
    const code = ZCreatePromotionRequestSchema.shape.code;
    expectAgreement(code, textOf([...'aZ09_- ', '\u0131', '\ufb01'], 8), [
      'ab',
      ' -ab',
      'A'.repeat(50),
    ]);
    expectAgreement(code, textOf(['a', ' '], 55), [], 300);
  });

  it('the card fields sent with a payment token', () => {
    const characters = [...'0123456789/ a', '\t'];
    expectAgreement(ZPaymentTokenFieldsSchema.shape.cardLast4, textOf(characters, 6), [' 1111 ']);
    expectAgreement(ZPaymentTokenFieldsSchema.shape.creditCardExpiration, textOf(characters, 8), [
      '12/30',
      ' 1 2 / 3 0 ',
      '12/3/0',
      '/1230',
      '12345',
    ]);
    // The stored card's expiry is documented by its format, which `checkPaymentToken` judges
    // after the field's own one to four characters.
    const stored = jsonOf(ZStoredCardFieldsSchema.shape.creditCardExpiration);
    fc.assert(
      fc.property(textOf(characters, 8), (value) => {
        expect(meets(stored, value)).toBe(isExpiryFormat(value) && normalizeExpiry(value) !== '');
      }),
      { numRuns: 3000 },
    );
  });

  it('a PDF in base64 and the file names of POST /api/pdf/zip', () => {
    const blob = ZPdfZipRequestSchema.shape.pdfBlobs.element.shape;
    const base64 = fc
      .tuple(fc.boolean(), textOf([...'JVBERi0AZaz09+/='], 14))
      .map(([prefixed, rest]) => (prefixed ? `JVBERi0${rest}` : rest));
    expectAgreement(blob.data, base64, ['JVBERi0=', 'JVBERi0t', 'JVBERi0tMQ==', 'JVBERi0']);
    expect(PDF_BASE64_PATTERN.test('JVBERi0xLjQK')).toBe(true);
    // The device names are refused by the server's own check (zip-from-base64-pdfs.ts).
    const filename = jsonOf(blob.filename);
    for (const name of ['con.pdf', 'LPT1.pdf', 'console.pdf', 'com0.pdf', 'a.pdf']) {
      expect({ name, ok: meets(filename, name) }).toEqual({
        name,
        ok: blob.filename.safeParse(name).success && !WINDOWS_DEVICE_NAME_PATTERN.test(name),
      });
    }
    fc.assert(
      fc.property(textOf([...'conCONlpt1.pdfa_-'], 10), (name) => {
        expect(meets(filename, name)).toBe(
          blob.filename.safeParse(name).success && !WINDOWS_DEVICE_NAME_PATTERN.test(name),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('forwardTo: the pattern takes only what the URL parser reads as an http(s) URL', () => {
    // The WHATWG URL parser of the runtime (the domain's own types name no I/O or platform API).
    const { URL } = globalThis as unknown as {
      URL: { canParse(url: string): boolean; new (url: string): { protocol: string } };
    };
    fc.assert(
      fc.property(fc.stringMatching(FORWARD_TO_PATTERN), (url) => {
        expect(URL.canParse(url)).toBe(true);
        expect(['http:', 'https:']).toContain(new URL(url).protocol);
        expect(ZForwardToSchema.safeParse(url).success).toBe(url.length <= 2048);
      }),
      { numRuns: 3000 },
    );
    for (const url of [
      'http://localhost:3000/login?returnTo=%2Faccount',
      'https://dealerpass.example.com/login',
      'HTTPS://EXAMPLE.COM',
      'http://127.0.0.1:8080/x',
      'http://[::1]:3000/login',
      'http://[2001:db8::ff00:42:8329]/',
    ]) {
      expect(ZForwardToSchema.safeParse(url).success).toBe(true);
    }
    for (const url of [
      'javascript:alert(1)',
      ' http://localhost/',
      'http://user@localhost/',
      'http://1.2.3.999/',
      'http://localhost:65536/',
      'http:/localhost',
      'ftp://localhost/',
    ]) {
      expect(ZForwardToSchema.safeParse(url).success).toBe(false);
    }
    expectAgreement(ZForwardToSchema, textOf([...'htps:/lochat.1[]:?#'], 24));
  });
});

describe('calendar dates', () => {
  it('CALENDAR_DATE_PATTERN is the texts parseIsoDate reads whole', () => {
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    for (const year of [0, 1, 4, 99, 100, 400, 1900, 1999, 2000, 2023, 2024, 2100, 2400, 9999]) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
          expect({ text, ok: CALENDAR_DATE_PATTERN.test(text) }).toEqual({
            text,
            ok: parseIsoDate(text) !== null,
          });
        }
      }
    }
    expect(CALENDAR_DATE_PATTERN.test('2024-02-29x')).toBe(false);
  });
});

describe('addresses by country (checkAddress)', () => {
  it('each country’s region and postal patterns are what checkAddress accepts', () => {
    const schema = addressJsonSchema({ country: 'c', state: 's', zip: 'z' });
    for (const [index, country] of COUNTRY_LIST.entries()) {
      const then = schema.allOf[index]!.then;
      const region = new RegExp(then.properties.s!.pattern, 'u');
      const postal = new RegExp(then.properties.z!.pattern, 'u');
      const regionTexts = fc.oneof(
        fc.constantFrom(...country.regions.map((r) => r.code)),
        fc.constantFrom(...country.regions.map((r) => ` ${r.code.toLowerCase()} `)),
        textOf([...'ABCFLMNSTXYZ bcflmn', '\u0131', '\u017f', '\ufb02'], 4),
      );
      fc.assert(
        fc.property(regionTexts, (text) => {
          const typed = text.trim().toUpperCase();
          const accepted = typed === '' ? !country.requiresRegion : isRegionOf(country.code, typed);
          expect({ text, ok: region.test(text) }).toEqual({ text, ok: accepted });
        }),
        { numRuns: 2000 },
      );
      const postalTexts = fc.oneof(
        textOf([...'0123456789 '], 8),
        textOf([...'K1A 0B1k1a0b\u017fD'], 9),
      );
      fc.assert(
        fc.property(postalTexts, (text) => {
          const typed = text.trim().toUpperCase();
          expect({ text, ok: postal.test(text) }).toEqual({
            text,
            ok: isValidPostalCode(country.code, typed),
          });
        }),
        { numRuns: 2000 },
      );
    }
  });
});
