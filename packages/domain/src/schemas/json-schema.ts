/**
 * JSON Schema (2020-12) for the rules zod cannot write into JSON Schema itself, so that the OpenAPI
 * description, generated from the very schema that validates, accepts what the server accepts
 * (issue 27 #2, docs/decisions/045, 053). zod writes a `.regex`, a `.max`, an enum on its own; it
 * leaves out a `.trim()` before a length, an `.overwrite`, a `.refine` and every rule between
 * fields. Such a schema states the same rule in JSON Schema words with `.meta()`, which zod's
 * `toJSONSchema` copies into what it produces.
 *
 * An object's `.meta()` holds no `properties` or `required` of its own: zod would put them in
 * place of the object's. Rules between fields go under `allOf`, `if`/`then`/`else` or `not`.
 * Query parameters are described one by one, so a rule between two of them cannot be stated.
 *
 * Patterns here use no lookahead (test generators cannot make text for one) and ECMA-262's `\s`,
 * which is exactly the set of characters `String.prototype.trim` removes. Lengths: zod counts
 * UTF-16 code units, JSON Schema code points; they differ only for characters outside the Basic
 * Multilingual Plane.
 */

/** A pattern's source without its `^…$` anchors, to be set into another pattern. */
export function patternBody(pattern: RegExp): string {
  const source = pattern.source;
  if (!source.startsWith('^') || !source.endsWith('$')) {
    throw new Error(`an anchored pattern is expected: ${source}`);
  }
  return source.slice(1, -1);
}

/** Text that `.trim()` turns into text matching `body` (a pattern without anchors). */
export function trimmedPattern(body: string): string {
  return `^\\s*(?:${body})\\s*$`;
}

/** Text whose trimmed length is `min` to `max` characters (`max` at least 1). */
export function trimmedLengthPattern(min: number, max: number): string {
  if (min < 0 || max < Math.max(min, 1)) throw new RangeError(`bad bounds ${min}..${max}`);
  const middle = max === 1 ? '' : `[\\s\\S]{${Math.max(0, min - 2)},${max - 2}}\\S`;
  const inner = min <= 1 && middle !== '' ? `\\S(?:${middle})?` : `\\S${middle}`;
  return min === 0 ? `^\\s*(?:${inner})?\\s*$` : `^\\s*${inner}\\s*$`;
}

/** Some character other than white space: the text is not blank. */
export const NOT_BLANK_PATTERN = '\\S';

/**
 * zod writes a trimmed field's `.min`/`.max` as `minLength`/`maxLength` of the text as sent; when a
 * pattern states the trimmed length instead, these keys drop them (an undefined key does not reach
 * the JSON document).
 */
export const WITHOUT_RAW_LENGTH = { minLength: undefined, maxLength: undefined } as const;

/**
 * Characters other than a–z whose `toUpperCase()` is made of A–Z (the sharp s, the dotless i, the
 * long s and the Latin ligatures); `json-schema.test.ts` checks the list against every code point.
 */
export const UPPER_CASED_TO_ASCII: Readonly<Record<string, string>> = {
  '\u00df': 'SS',
  '\u0131': 'I',
  '\u017f': 'S',
  '\ufb00': 'FF',
  '\ufb01': 'FI',
  '\ufb02': 'FL',
  '\ufb03': 'FFI',
  '\ufb04': 'FFL',
  '\ufb05': 'ST',
  '\ufb06': 'ST',
};

/** Characters other than A–Z whose `toLowerCase()` is made of a–z (the Kelvin sign); tested too. */
export const LOWER_CASED_TO_ASCII: Readonly<Record<string, string>> = { '\u212a': 'k' };

/** A character class of the characters whose upper case is one of `upper` (A–Z, digits, `_-`). */
export function upperCasedClass(upper: string): string {
  const members = new Set<string>();
  for (const char of upper) {
    members.add(char === '-' ? '\\-' : char);
    if (/[A-Z]/.test(char)) members.add(char.toLowerCase());
    for (const [typed, becomes] of Object.entries(UPPER_CASED_TO_ASCII)) {
      if (becomes === char) members.add(typed);
    }
  }
  return `[${[...members].join('')}]`;
}

/** Text whose `toUpperCase()` is exactly `upper` (A–Z and digits), ligatures included. */
export function upperCasedText(upper: string): string {
  if (upper === '') return '';
  const options = [`${upperCasedClass(upper[0]!)}${upperCasedText(upper.slice(1))}`];
  for (const [typed, becomes] of Object.entries(UPPER_CASED_TO_ASCII)) {
    if (becomes.length > 1 && upper.startsWith(becomes)) {
      options.push(`${typed}${upperCasedText(upper.slice(becomes.length))}`);
    }
  }
  return options.length === 1 ? options[0]! : `(?:${options.join('|')})`;
}

/** A JSON Schema of an object that requires `keys` to hold non-blank text. */
export function notBlank(keys: readonly string[]) {
  return {
    required: [...keys],
    properties: Object.fromEntries(keys.map((key) => [key, { pattern: NOT_BLANK_PATTERN }])),
  };
}
