import { useEffect } from 'react';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { SUBTOTAL_STORAGE_KEY } from '@dealerpass/domain/billing/order-summary';
import { formatCurrency } from '@dealerpass/domain/money';
import { quote } from '@dealerpass/domain/prices';
import { priceTable } from '../../../lib/price-table.ts';
import { formatBusinessDate } from '@dealerpass/domain/time/calendar-date';
import { QuoteTable } from '../../../components/quote-table.tsx';
import { runtimeConfig } from '../../../lib/runtime-config.ts';

/** The total as the browser keeps it (001 §2, §9; R3: for display only): dollars, two decimals. */
export function storeSubTotal(totalCents: number): void {
  try {
    window.localStorage.setItem(SUBTOTAL_STORAGE_KEY, (totalCents / 100).toFixed(2));
  } catch {
    // Storage may be unavailable (private mode); the calculator still shows the total.
  }
}

/** The stored total in cents, or null when there is none. */
export function readSubTotal(): number | null {
  try {
    const raw = window.localStorage.getItem(SUBTOTAL_STORAGE_KEY);
    if (raw === null || !/^\d+(\.\d{1,2})?$/.test(raw)) return null;
    return Math.round(Number(raw) * 100);
  } catch {
    return null;
  }
}

/**
 * The live pricing calculator beside the subscriptions (001 §2): the domain's quote of this
 * moment, line by line, the platform fee and the total, saved as `sub_total` on every change.
 */
export function PricingCalculator({
  codes,
  now,
}: {
  codes: readonly TSubscriptionCode[];
  now: Date;
}) {
  const priced = quote(codes, now, priceTable());
  useEffect(() => storeSubTotal(priced.totalCents), [priced.totalCents]);
  const asOf = formatBusinessDate(now, runtimeConfig().businessTimeZone);

  return (
    <section className="signup-calculator card" aria-labelledby="calculator-title">
      <h3 id="calculator-title">Your monthly price</h3>
      {priced.lines.length === 0 ? (
        <p className="form-note">Choose a subscription to see its price.</p>
      ) : (
        <QuoteTable
          quote={priced}
          caption="Selected subscriptions and their prices"
          captionHidden
          className="signup-calculator__lines"
          amountClassName="signup-calculator__amount"
        />
      )}
      <p className="signup-calculator__total" aria-live="polite">
        <span>Total as of {asOf}</span>{' '}
        <strong data-testid="calculator-total">{formatCurrency(priced.totalCents)}</strong>
      </p>
      <p className="form-note">
        Extras are free while two or more pricing guides, market reports or simulcasts are selected.
      </p>
    </section>
  );
}
