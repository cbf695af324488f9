import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cardArea } from '@dealerpass/domain/account/billing-view';
import { accountFlags } from '@dealerpass/domain/account/status';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { createQueryClient } from '../../../lib/react-query.ts';
import { getPaymentHistoryQueryOptions } from '../api/get-payment-history.ts';
import { CurrentUserProvider, type ICurrentUser } from '../current-user.tsx';
import { BillingForm } from './billing-form.tsx';

// The gateway's tokenization is another system (R5): its answer is given here.
vi.mock('../../../lib/payments/tokenize-card.ts', () => ({
  tokenizeCard: vi.fn(async () => ({
    paymentToken: 'tok_test',
    cardBrand: 'visa',
    cardLast4: '4242',
    creditCardExpiration: '1230',
  })),
}));

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const INACTIVE: ICurrentUser = {
  dealerpassUserId: 'dealer',
  karId: 'k',
  email: 'dealer@example.com',
  firstName: 'Pat',
  lastName: 'Lee',
  dealership: 'Lee Motors',
  accountStatus: 'inactive',
  address1: '1 Main St',
  address2: '',
  city: 'Albany',
  state: 'NY',
  zip: '12207',
  country: 'US',
  billingFirstName: 'Pat',
  billingLastName: 'Lee',
  billingAddress1: '1 Main St',
  billingAddress2: '',
  billingCity: 'Albany',
  billingState: 'NY',
  billingZip: '12207',
  billingCountry: 'US',
};

let historyFetches = 0;
/** Payment History beside the form, as on the Billing page. */
function HistoryProbe() {
  useQuery(getPaymentHistoryQueryOptions(2026));
  return null;
}

/** 000 §4, R4: reactivating an inactive account charges at once; the history on screen shows it. */
describe('BillingForm', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    historyFetches = 0;
  });
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('after a reactivation Payment History asks again, without a reload', async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes('/api/users/paymentHistory')) {
        historyFetches += 1;
        return json(200, { data: { payments: [] } });
      }
      if (url.endsWith('/api/users/reactivate')) {
        return json(200, { data: { ...INACTIVE, accountStatus: 'active' } });
      }
      return json(404, { code: 'NOT_FOUND', message: 'not found' });
    });
    const area = cardArea({ flags: accountFlags(INACTIVE), hasCard: false, editing: false });
    expect(area.submitAction).toBe('reactivate');
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <CurrentUserProvider user={INACTIVE} refetch={async () => INACTIVE}>
            <HistoryProbe />
            <BillingForm area={area} onDone={() => undefined} />
          </CurrentUserProvider>
        </ToastProvider>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(historyFetches).toBe(1));
    await userEvent.type(screen.getByLabelText(/^Credit card number/), '4242424242424242');
    await userEvent.type(screen.getByLabelText(/^Expiration/), '12/30');
    await userEvent.type(screen.getByLabelText(/^CVV/), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Reactivate Account' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([input]) => String(input).endsWith('/api/users/reactivate')),
      ).toBe(true),
    );
    await waitFor(() => expect(historyFetches).toBe(2));
  });
});
