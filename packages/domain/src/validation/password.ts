/**
 * Password complexity (001 §5 Shared patterns): 8 or more non-space characters with a
 * lower-case letter, an upper-case letter, a digit and a special character.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[^A-Za-z0-9\s])\S{8,128}$/;

export function isValidPassword(value: string): boolean {
  return PASSWORD_PATTERN.test(value);
}

/**
 * PASSWORD_PATTERN in JSON Schema words, for the API description (docs/decisions/053): JSON Schema
 * patterns are not anchored, so each lookahead becomes a pattern of its own ("has a lower-case
 * letter"), and the whole text is non-space characters within the length.
 */
export const PASSWORD_JSON_SCHEMA = {
  type: 'string',
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: PASSWORD_MAX_LENGTH,
  allOf: [
    { pattern: '^\\S*$' },
    { pattern: '[a-z]' },
    { pattern: '[A-Z]' },
    { pattern: '[0-9]' },
    { pattern: '[^A-Za-z0-9\\s]' },
  ],
  examples: ['Str0ng!Passw0rd'],
} as const;
