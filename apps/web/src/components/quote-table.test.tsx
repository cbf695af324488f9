import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PLATFORM_FEE_FROM, R3_PRICE_TABLE, quote } from '@dealerpass/domain/prices';
import { QuoteTable } from './quote-table.tsx';

const AFTER_FEE = new Date(Date.parse(PLATFORM_FEE_FROM) + 1_000);

describe('QuoteTable', () => {
  afterEach(cleanup);

  it('names each line by a row header and a free extra by its struck list price', () => {
    // Two paid items make the extras free (R3).
    const priced = quote(['KBB', 'MMR', 'CF'], AFTER_FEE, R3_PRICE_TABLE);
    render(<QuoteTable quote={priced} caption="Example" className="t" amountClassName="amount" />);
    const table = screen.getByRole('table', { name: 'Example' });
    const rows = within(table).getAllByRole('row');
    const carfax = rows.find((row) => row.getAttribute('data-code') === 'CF');
    expect(within(carfax!).getByRole('rowheader').textContent).toBe(
      priced.lines.find((line) => line.code === 'CF')!.name,
    );
    expect(carfax!.querySelector('s')?.textContent).toBe('List price $55.00');
    expect(within(table).getByRole('rowheader', { name: 'Platform fee' })).toBeTruthy();
    // No footer without a total label: the calculator shows its total outside the table.
    expect(table.querySelector('tfoot')).toBeNull();
  });

  it('adds the total as a footer row when given its label, and can hide the caption', () => {
    const priced = quote(['KBB'], AFTER_FEE, R3_PRICE_TABLE);
    render(
      <QuoteTable
        quote={priced}
        caption="Selected"
        captionHidden
        className="t"
        amountClassName="amount"
        totalLabel="Total"
      />,
    );
    const table = screen.getByRole('table', { name: 'Selected' });
    expect(table.querySelector('caption')?.className).toBe('visually-hidden');
    const footer = table.querySelector('tfoot tr')!;
    expect(within(footer as HTMLElement).getByRole('rowheader').textContent).toBe('Total');
    expect(footer.querySelector('td')?.textContent).toBe('$68.00');
  });
});
