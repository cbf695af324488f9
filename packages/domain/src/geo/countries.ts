/**
 * The countries offered (000 §3, §5; 001 §3, §9): US, CA and MX, their regions, postal
 * patterns, input caps and which of them require a region.
 */
import { CA_REGIONS, MX_REGIONS, US_REGIONS } from './regions.ts';
import type { IRegion } from './regions.ts';

export const COUNTRY_CODES = ['US', 'CA', 'MX'] as const;
export type TCountryCode = (typeof COUNTRY_CODES)[number];

/** 001 §3: the sign-up country and billing country default to US. */
export const DEFAULT_COUNTRY: TCountryCode = 'US';

/**
 * Canada Post never uses D, F, I, O, Q or U, and never W or Z as the first letter; postal
 * codes are 'A1A 1A1' with one space. US ZIP and Mexican código postal are five digits.
 */
const CA_FIRST = 'ABCEGHJKLMNPRSTVXY';
const CA_OTHER = 'ABCEGHJKLMNPRSTVWXYZ';
export const CA_POSTAL_PATTERN = new RegExp(
  `^[${CA_FIRST}]\\d[${CA_OTHER}] \\d[${CA_OTHER}]\\d$`,
  'i',
);
export const FIVE_DIGIT_POSTAL_PATTERN = /^\d{5}$/;

export interface ICountry {
  code: TCountryCode;
  name: string;
  /** 'State' or, for Canada, 'Province' (001 §2). */
  regionLabel: 'State' | 'Province';
  /** 000 §5: Mexico and US require a region. */
  requiresRegion: boolean;
  regions: readonly IRegion[];
  postalPattern: RegExp;
  /** 000 §5, 001 §3: Canada 7, Mexico 5, US 5. */
  postalMaxLength: number;
  /** The postal input is numeric-style for some countries (001 §2). */
  postalInputMode: 'numeric' | 'text';
}

export const COUNTRIES: Readonly<Record<TCountryCode, ICountry>> = {
  US: {
    code: 'US',
    name: 'United States',
    regionLabel: 'State',
    requiresRegion: true,
    regions: US_REGIONS,
    postalPattern: FIVE_DIGIT_POSTAL_PATTERN,
    postalMaxLength: 5,
    postalInputMode: 'numeric',
  },
  CA: {
    code: 'CA',
    name: 'Canada',
    regionLabel: 'Province',
    requiresRegion: false,
    regions: CA_REGIONS,
    postalPattern: CA_POSTAL_PATTERN,
    postalMaxLength: 7,
    postalInputMode: 'text',
  },
  MX: {
    code: 'MX',
    name: 'Mexico',
    regionLabel: 'State',
    requiresRegion: true,
    regions: MX_REGIONS,
    postalPattern: FIVE_DIGIT_POSTAL_PATTERN,
    postalMaxLength: 5,
    postalInputMode: 'numeric',
  },
};

/** In display order, for dropdowns. */
export const COUNTRY_LIST: readonly ICountry[] = COUNTRY_CODES.map((code) => COUNTRIES[code]);

export function isCountryCode(value: unknown): value is TCountryCode {
  return typeof value === 'string' && (COUNTRY_CODES as readonly string[]).includes(value);
}

export function countryOf(code: string | null | undefined): ICountry | null {
  return isCountryCode(code) ? COUNTRIES[code] : null;
}

export function requiresRegion(country: string | null | undefined): boolean {
  return countryOf(country)?.requiresRegion ?? false;
}

export function regionsOf(country: string | null | undefined): readonly IRegion[] {
  return countryOf(country)?.regions ?? [];
}

export function regionLabelOf(country: string | null | undefined): 'State' | 'Province' {
  return countryOf(country)?.regionLabel ?? 'State';
}

export function isRegionOf(country: string | null | undefined, region: string): boolean {
  return regionsOf(country).some((r) => r.code === region);
}

export function postalMaxLengthOf(country: string | null | undefined): number {
  return countryOf(country)?.postalMaxLength ?? 10;
}

/** Whether a postal code is valid for the country; unknown countries accept nothing. */
export function isValidPostalCode(country: string | null | undefined, postal: string): boolean {
  const found = countryOf(country);
  if (!found || postal.length > found.postalMaxLength) return false;
  return found.postalPattern.test(postal);
}

/** Upper-cases Canadian codes so 'k1a 0b1' is stored as 'K1A 0B1'. */
export function normalizePostalCode(country: string | null | undefined, postal: string): string {
  const trimmed = postal.trim();
  return country === 'CA' ? trimmed.toUpperCase() : trimmed;
}
