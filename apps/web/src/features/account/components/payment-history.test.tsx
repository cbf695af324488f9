import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultHistoryYear } from '@dealerpass/domain/billing/payment-history';
import { businessTimeZone } from '../business-time.ts';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { createQueryClient } from '../../../lib/react-query.ts';
import { PaymentHistory } from './payment-history.tsx';

const fetchMock = vi.fn<typeof fetch>();
const PDF = btoa('%PDF-1.4 test');

function answer(payments: object[]) {
  return new Response(JSON.stringify({ data: { payments } }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}

/** R12: a payment staff refunded (part of) shows it on its row, with the refund's receipt. */
describe('PaymentHistory', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('shows the refunded amount under the payment and offers each refund receipt', async () => {
    const year = defaultHistoryYear(new Date(), businessTimeZone());
    fetchMock.mockResolvedValue(
      answer([
        {
          activationDate: `${year}-01-05`,
          paidWith: 'Visa ending in 1111',
          amount: 118,
          receiptBlob: PDF,
          refundedAmount: 20,
          refunds: [{ refundDate: `${year}-01-07`, amount: 20, receiptBlob: PDF }],
        },
        {
          activationDate: `${year}-02-05`,
          paidWith: 'Visa ending in 1111',
          amount: 118,
          receiptBlob: PDF,
        },
      ]),
    );
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <PaymentHistory />
        </ToastProvider>
      </QueryClientProvider>,
    );
    const table = await screen.findByTestId('history-table');
    const rows = within(table).getAllByRole('row');
    // The header and two payments, newest first: the same four columns for each.
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.children).toHaveLength(4);
    expect(within(rows[1]!).queryByTestId('history-refunded')).toBeNull();
    expect(within(rows[2]!).getByTestId('history-refunded').textContent).toBe('Refunded $20.00');
    expect(
      within(rows[2]!).getByRole('button', {
        name: /^Download refund receipt of Jan 07, \d{4}, \$20\.00$/,
      }),
    ).toBeTruthy();
    expect(within(rows[1]!).queryByRole('button', { name: /refund receipt/ })).toBeNull();
  });
});
