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
