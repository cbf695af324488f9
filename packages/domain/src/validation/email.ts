/** E-mail rules shared by every form (000 §5, 001 §5, §9: 8 to 254 characters). */

export const EMAIL_MIN_LENGTH = 8;
export const EMAIL_MAX_LENGTH = 254;

/**
 * The WHATWG "valid e-mail address" grammar, plus a top-level domain of two or more letters
 * so that `name@host` (valid in HTML, never a dealer's address) is refused.
 */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;

export function isValidEmail(value: string): boolean {
  return (
    value.length >= EMAIL_MIN_LENGTH &&
    value.length <= EMAIL_MAX_LENGTH &&
    EMAIL_PATTERN.test(value)
  );
}

/** The domain part, lower-cased: used for the refused company domain (001 §6, R1). */
export function emailDomain(value: string): string {
  const at = value.lastIndexOf('@');
  return at < 0 ? '' : value.slice(at + 1).toLowerCase();
}

/** Whether an address belongs to the configured company domain or one of its sub-domains. */
export function isCompanyEmail(value: string, companyDomain: string): boolean {
  const domain = emailDomain(value);
  const company = companyDomain.toLowerCase();
  return domain === company || domain.endsWith(`.${company}`);
}
