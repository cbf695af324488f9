/** Small text rules every form shares. */

/** '{label} is required.' (000 §5, 001 §5). */
export function requiredMessage(label: string): string {
  return `${label} is required.`;
}

/** 'Must enter a valid {label}' (000 §5). */
export function invalidMessage(label: string): string {
  return `Must enter a valid ${label}`;
}

/** Card number, expiry and CVV are stripped of whitespace on blur (000 §5, 001 §4). */
export function stripWhitespace(value: string): string {
  return value.replace(/\s+/g, '');
}

export function isBlank(value: string | null | undefined): boolean {
  return value == null || value.trim() === '';
}

/** Digits only: the final sign-up payload sends the phone without separators (001 §3). */
export function digitsOnly(value: string): string {
  return value.replace(/\D+/g, '');
}
