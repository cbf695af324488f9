/** Card expiry MMYY (000 §5, 001 §5, §9). */
import { addMonthsClamped, startOfDayIn } from '../time/calendar-date.ts';
import { stripWhitespace } from './text.ts';

/** Exactly four digits with a real month; the input accepts a slash ('MM/YY'), stripped here. */
export const EXPIRY_PATTERN = /^(0[1-9]|1[0-2])\d{2}$/;
/** The input accepts digits and a slash (000 §5). */
export const EXPIRY_INPUT_PATTERN = /^[\d/ ]*$/;

/** '12/27' or '1227' → '1227'; anything else is returned stripped for the pattern to refuse. */
export function normalizeExpiry(value: string): string {
  return stripWhitespace(value).replace('/', '');
}

const SPACES = '\\s*';

/** The place of the one slash `normalizeExpiry` removes: before the i-th character, or none. */
const SLASH_PLACES = [undefined, 0, 1, 2, 3, 4] as const;

/**
 * `isExpiryFormat` as one pattern on the text as typed, for JSON Schema (docs/decisions/053):
 * MMYY with a real month, white space anywhere, at most one slash anywhere.
 */
export const EXPIRY_TEXT_PATTERN = `^(?:${SLASH_PLACES.map((slashAt) => {
  const gap = (i: number) => (i === slashAt ? `${SPACES}/${SPACES}` : SPACES);
  return `${gap(0)}(?:0${gap(1)}[1-9]|1${gap(1)}[0-2])${gap(2)}[0-9]${gap(3)}[0-9]${gap(4)}`;
}).join('|')})$`;

/**
 * Text that `normalizeExpiry` turns into at most `max` characters (`min` at least): white space
 * dropped and the first slash removed. For JSON Schema (docs/decisions/053).
 */
export function expiryLengthPattern(min: number, max: number): string {
  const alternatives = [`(?:[^\\s/]${SPACES}){${min},${max}}`];
  for (let before = 0; before <= max; before++) {
    const after = `{${Math.max(0, min - before)},${max - before}}`;
    alternatives.push(`(?:[^\\s/]${SPACES}){${before}}/${SPACES}(?:\\S${SPACES})${after}`);
  }
  return `^${SPACES}(?:${alternatives.join('|')})$`;
}

export function isExpiryFormat(value: string): boolean {
  return EXPIRY_PATTERN.test(normalizeExpiry(value));
}

/**
 * Whether the end of the expiry month is still ahead of `now` (000 §5). The month ends at
 * midnight starting the next month in `timeZone` (the business time zone, DECISIONS R4).
 */
export function isExpiryInFuture(value: string, now: Date, timeZone = 'UTC'): boolean {
  const mmyy = normalizeExpiry(value);
  if (!EXPIRY_PATTERN.test(mmyy)) return false;
  const month = Number(mmyy.slice(0, 2));
  const year = 2000 + Number(mmyy.slice(2));
  const nextMonth = addMonthsClamped({ year, month, day: 1 }, 1);
  return now.getTime() < startOfDayIn(nextMonth, timeZone).getTime();
}
