import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatCurrency } from '@dealerpass/domain/money';
import { R3_PRICE_TABLE, quote } from '@dealerpass/domain/prices';
import { PricingCalculator, readSubTotal } from './pricing-calculator.tsx';

const NOW = new Date('2026-03-15T15:00:00Z');

describe('PricingCalculator (001 §2, R3)', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });

  it('shows the domain quote and keeps its total as sub_total', () => {
    const codes = ['NADA', 'MMR', 'CF', 'AC'] as const;
    render(<PricingCalculator codes={codes} now={NOW} />);
    const expected = quote(codes, NOW, R3_PRICE_TABLE);
    expect(screen.getByTestId('calculator-total').textContent).toBe(
      formatCurrency(expected.totalCents),
    );
    expect(screen.getByText('Platform fee')).toBeTruthy();
    expect(screen.getAllByText('Free')).toHaveLength(2);
    expect(localStorage.getItem('sub_total')).toBe((expected.totalCents / 100).toFixed(2));
    expect(readSubTotal()).toBe(expected.totalCents);
  });

  it('with nothing chosen the total is zero and no fee is added', () => {
    render(<PricingCalculator codes={[]} now={NOW} />);
    expect(screen.getByTestId('calculator-total').textContent).toBe('$0.00');
    expect(screen.queryByText('Platform fee')).toBeNull();
    expect(screen.getByText('Choose a subscription to see its price.')).toBeTruthy();
  });
});
