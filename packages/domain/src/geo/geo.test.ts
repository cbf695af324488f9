import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  COUNTRIES,
  COUNTRY_CODES,
  COUNTRY_LIST,
  DEFAULT_COUNTRY,
  countryOf,
  isRegionOf,
  isValidPostalCode,
  normalizePostalCode,
  postalMaxLengthOf,
  regionLabelOf,
  regionsOf,
  requiresRegion,
} from './countries.ts';
import type { TCountryCode } from './countries.ts';

describe('countries (000 §3, §5; 001 §3, §9)', () => {
  it('US, CA and MX, US by default', () => {
    expect(COUNTRY_LIST.map((c) => [c.code, c.name])).toEqual([
      ['US', 'United States'],
      ['CA', 'Canada'],
      ['MX', 'Mexico'],
    ]);
    expect(DEFAULT_COUNTRY).toBe('US');
  });

  it.each([
    ['US', 5, true, 'State'],
    ['CA', 7, false, 'Province'],
    ['MX', 5, true, 'State'],
  ] as const)('%s: cap %i, region required %s, label %s', (code, cap, region, label) => {
    expect(postalMaxLengthOf(code)).toBe(cap);
    expect(requiresRegion(code)).toBe(region);
    expect(regionLabelOf(code)).toBe(label);
  });

  it('unknown countries', () => {
    expect(countryOf('FR')).toBeNull();
    expect(requiresRegion(undefined)).toBe(false);
    expect(regionsOf('FR')).toEqual([]);
    expect(regionLabelOf(null)).toBe('State');
    expect(postalMaxLengthOf('FR')).toBe(10);
    expect(isValidPostalCode('FR', '75001')).toBe(false);
  });

  it('regions: DC and territories, Canadian provinces, Distrito Federal', () => {
    for (const code of ['DC', 'PR', 'GU', 'VI', 'AS', 'MP', 'NY'])
      expect(isRegionOf('US', code)).toBe(true);
    expect(regionsOf('CA')).toHaveLength(13);
    expect(isRegionOf('CA', 'QC')).toBe(true);
    expect(regionsOf('MX')).toHaveLength(32);
    expect(isRegionOf('MX', 'DF')).toBe(true);
    expect(isRegionOf('MX', 'NY')).toBe(false);
    for (const country of COUNTRY_CODES) {
      const codes = regionsOf(country).map((r) => r.code);
      expect(new Set(codes).size).toBe(codes.length);
      for (const code of codes) expect(code).toMatch(/^[A-Z]{2}$/);
    }
  });

  it.each([
    ['US', '12345', true],
    ['US', '1234', false],
    ['US', '123456', false],
    ['US', '12345-6789', false],
    ['MX', '01000', true],
    ['MX', 'ABCDE', false],
    ['CA', 'K1A 0B1', true],
    ['CA', 'k1a 0b1', true],
    ['CA', 'K1A0B1', false],
    ['CA', 'D1A 0B1', false], // D never used
    ['CA', 'W1A 0B1', false], // W never first
    ['CA', 'Z1A 0B1', false], // Z never first
    ['CA', 'K1W 0Z1', true], // W and Z fine elsewhere
    ['CA', 'K1O 0B1', false], // O never used
    ['CA', 'K1A 0U1', false], // U never used
  ] as const)('%s %s → %s', (country, zip, ok) => {
    expect(isValidPostalCode(country, zip)).toBe(ok);
  });

  it('normalizes Canadian codes to upper case', () => {
    expect(normalizePostalCode('CA', ' k1a 0b1 ')).toBe('K1A 0B1');
    expect(normalizePostalCode('US', ' 12345 ')).toBe('12345');
  });

  const FIRST = 'ABCEGHJKLMNPRSTVXY'.split('');
  const OTHER = 'ABCEGHJKLMNPRSTVWXYZ'.split('');
  const digit = fc.integer({ min: 0, max: 9 }).map(String);
  const validPostal: Record<TCountryCode, fc.Arbitrary<string>> = {
    US: fc.stringMatching(/^\d{5}$/),
    MX: fc.stringMatching(/^\d{5}$/),
    CA: fc
      .tuple(
        fc.constantFrom(...FIRST),
        digit,
        fc.constantFrom(...OTHER),
        digit,
        fc.constantFrom(...OTHER),
        digit,
      )
      .map(([a, b, c, d, e, f]) => `${a}${b}${c} ${d}${e}${f}`),
  };

  it('property: any valid postal code matches its pattern and fits the cap', () => {
    for (const country of COUNTRY_CODES) {
      fc.assert(
        fc.property(validPostal[country], (zip) => {
          expect(isValidPostalCode(country, zip)).toBe(true);
          expect(COUNTRIES[country].postalPattern.test(zip)).toBe(true);
          expect(zip.length).toBeLessThanOrEqual(postalMaxLengthOf(country));
        }),
      );
    }
  });

  it('property: nothing longer than the cap is valid', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...COUNTRY_CODES),
        fc.string({ minLength: 1, maxLength: 20 }),
        (country, extra) => {
          const zip = `${'9'.repeat(postalMaxLengthOf(country))}${extra}`;
          expect(isValidPostalCode(country, zip)).toBe(false);
        },
      ),
    );
  });
});
