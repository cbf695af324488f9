/**
 * Money is integer cents everywhere (DECISIONS R3); floating point only appears at the
 * edge where the specification's API carries dollars (`currentBalance`, payment `amount`).
 */
export type TCents = number;

const NOT_AVAILABLE = 'N/A';

/** '$1,234.50', '-$3.00', or 'N/A' when there is no amount (000 §4 Billing summary). */
export function formatCurrency(cents: TCents | null | undefined): string {
  if (cents == null || !Number.isFinite(cents)) return NOT_AVAILABLE;
  const whole = Math.round(cents);
  const sign = whole < 0 ? '-' : '';
  const abs = Math.abs(whole);
  const dollars = Math.trunc(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const rest = (abs % 100).toString().padStart(2, '0');
  return `${sign}$${dollars}.${rest}`;
}

/**
 * Dollars as the API carries them (two decimals, DECISIONS R4) to integer cents.
 * Rounds half away from zero on the third decimal so 0.1 + 0.2 style noise disappears.
 */
export function dollarsToCents(dollars: number): TCents {
  const cents = Math.round(Math.abs(dollars) * 100);
  return dollars < 0 && cents !== 0 ? -cents : cents;
}

/** Integer cents to the API's dollar number with two decimals. */
export function centsToDollars(cents: TCents): number {
  return Math.round(cents) / 100;
}

/** Formats an API dollar amount (payment history rows, current balance). */
export function formatDollars(dollars: number | null | undefined): string {
  if (dollars == null || !Number.isFinite(dollars)) return NOT_AVAILABLE;
  return formatCurrency(dollarsToCents(dollars));
}
