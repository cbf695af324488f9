import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorMessage } from '@dealerpass/domain/messages';
import type {
  ISubscriptionChangePreview,
  ISubscriptionSelectionState,
} from '@dealerpass/domain/schemas/subscription-change';
import { createQueryClient } from '../../../lib/react-query.ts';
import { MemoryRouter } from '../../../lib/router/router.tsx';
import { getPaymentHistoryQueryOptions } from '../api/get-payment-history.ts';
import { CurrentUserProvider, type ICurrentUser } from '../current-user.tsx';
import ChangeSubscriptionsPage from './change-subscriptions-page.tsx';

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const STATE: ISubscriptionSelectionState = {
  codes: [],
  takeEffectOn: null,
  current: { codes: ['NADA'], autoExtras: [] },
};

function previewOf(overrides: Partial<ISubscriptionChangePreview>): ISubscriptionChangePreview {
  return {
    currentCodes: ['NADA'],
    added: [],
    removed: [],
    pendingRemovals: [],
    chargeTodayCents: 0,
    daysLeft: 16,
    daysInPeriod: 31,
    currentMonthlyCents: 7300,
    nextBillCents: 7300,
    nextBillDate: '2026-04-10',
    allowance: 'any',
    additions: [],
    cardRequired: false,
    ...overrides,
  };
}

const ADD_MMR = previewOf({
  added: ['MMR', 'CF', 'AC'],
  chargeTodayCents: 3355,
  nextBillCents: 13800,
  additions: [
    { code: 'MMR', monthlyCents: 6500, free: false },
    { code: 'CF', monthlyCents: 0, free: true },
    { code: 'AC', monthlyCents: 0, free: true },
  ],
});

function user(overrides: Partial<ICurrentUser> = {}): ICurrentUser {
  return {
    dealerpassUserId: 'dealer',
    karId: 'k',
    email: 'dealer@example.com',
    firstName: 'Pat',
    lastName: 'Lee',
    dealership: 'Lee Motors',
    accountStatus: 'active',
    subscriptions: ['NADA'],
    ...overrides,
  };
}

/** Payment History on the same screen: how many times it asked the server. */
let historyFetches = 0;
function HistoryProbe() {
  useQuery(getPaymentHistoryQueryOptions(2026));
  return null;
}

/** The server as the page calls it; `post` answers the change. */
function serve(options: { preview?: ISubscriptionChangePreview; post?: () => Response } = {}) {
  fetchMock.mockImplementation(async (input) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.includes('/api/users/subscriptions/pendingRemovals')) return json(200, { data: STATE });
    if (url.includes('/api/users/paymentHistory')) {
      historyFetches += 1;
      return json(200, { data: { payments: [] } });
    }
    if (url.includes('/api/users/subscriptions/change?')) {
      const codes = new URL(url, 'http://x').searchParams.get('codes');
      return json(200, {
        data: codes === 'NADA' ? previewOf({}) : (options.preview ?? ADD_MMR),
      });
    }
    if (url.endsWith('/api/users/subscriptions/change') && options.post) return options.post();
    return json(404, { code: 'NOT_FOUND', message: 'not found' });
  });
}

function renderPage(account: ICurrentUser = user()) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <CurrentUserProvider user={account} refetch={async () => account}>
          <HistoryProbe />
          <ChangeSubscriptionsPage />
        </CurrentUserProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const tickMmr = async () => {
  const box = await screen.findByRole('checkbox', { name: /^Manheim Market Report \$/ });
  await userEvent.click(box);
};
const postedBodies = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);

/** /account/subscriptions/change (R10): what the page says for each outcome the server gives. */
describe('ChangeSubscriptionsPage', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    historyFetches = 0;
  });
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('a pending-cancel account is told to reactivate first, with the link to where it can', async () => {
    serve();
    renderPage(user({ accountStatus: 'pending cancel' }));
    const notice = await screen.findByTestId('change-not-allowed');
    expect(notice.textContent).toContain('reactivate your account first');
    const link = within(notice).getByRole('link', { name: 'Reactivate in Billing Details' });
    expect(link.getAttribute('href')).toBe('/account/billing');
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('a complimentary account is told to call Customer Support at the configured phone', async () => {
    serve();
    renderPage(user({ accountStatusDetails: 'complimentary' }));
    const notice = await screen.findByTestId('change-not-allowed');
    expect(notice.textContent).toContain('call 1-800-555-0199');
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('lists what is added, extras made free as included free, in the preview and the catalogue', async () => {
    serve();
    renderPage();
    await tickMmr();
    const additions = await screen.findByTestId('additions');
    expect(
      within(additions)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Manheim Market Report: $65.00/mo',
      'CARFAX Integration: included free',
      'AutoCheck Integration: included free',
    ]);
    // Ticking the second paid item ticked the extras (R3); their price is no list price now.
    const carfax = screen.getByRole('checkbox', { name: /^CARFAX Integration[^S]*included free$/ });
    expect((carfax as HTMLInputElement).checked).toBe(true);
    expect(carfax.closest('div')!.textContent).toContain('included free');
    expect(carfax.closest('div')!.textContent).not.toContain('$55.00');
  });

  it('with no card on file, asks for a card before anything is charged', async () => {
    serve({ preview: { ...ADD_MMR, cardRequired: true } });
    renderPage();
    await tickMmr();
    const note = await screen.findByTestId('card-required');
    expect(note.textContent).toContain('there is no card on file');
    expect(
      within(note)
        .getByRole('link', { name: 'Add a card in Billing Details' })
        .getAttribute('href'),
    ).toBe('/account/billing');
    expect(
      (screen.getByRole('button', { name: 'Confirm change' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });

  it('with an annual invoice open, says before the change that the invoice is replaced and for how much (decision 052)', async () => {
    serve({
      preview: {
        ...ADD_MMR,
        annualInvoice: { number: 'DP-2026-000042', totalCents: 78_840, newTotalCents: 149_040 },
      },
    });
    renderPage();
    await tickMmr();
    const line = await screen.findByTestId('annual-invoice-change');
    expect(line.textContent).toBe(
      'Invoice DP-2026-000042 ($788.40) is voided, and a new invoice for $1,490.40 is issued and e-mailed in its place.',
    );
  });

  it('sends the selection it was based on; another window’s change is 409 and asks for a review', async () => {
    serve({
      post: () =>
        json(409, {
          statusCode: 409,
          code: 'CHANGE_SELECTION_STALE',
          message: errorMessage('CHANGE_SELECTION_STALE'),
          errors: [],
        }),
    });
    renderPage();
    await tickMmr();
    await screen.findByTestId('additions');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm change' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Please review your change');
    expect(alert.textContent).toContain(
      'Your subscriptions changed in another window; review the change.',
    );
    expect(postedBodies()[0]).toMatchObject({
      codes: ['NADA', 'MMR', 'CF', 'CF_S', 'AC', 'AC_S'],
      basedOn: { codes: ['NADA'], pendingRemovals: [] },
    });
    expect(screen.queryByTestId('change-applied')).toBeNull();
  });

  it('a change that went through is a success notice, and Payment History asks again', async () => {
    serve({
      post: () => json(200, { data: { ...ADD_MMR, changeId: 'c1', paymentId: 'p1' } }),
    });
    renderPage();
    await tickMmr();
    await screen.findByTestId('additions');
    await waitFor(() => expect(historyFetches).toBe(1));
    await userEvent.click(screen.getByRole('button', { name: 'Confirm change' }));
    const applied = await screen.findByTestId('change-applied');
    expect(applied.className).toContain('account-notice--success');
    expect(applied.textContent).toContain('Your subscriptions have been changed.');
    // The prorated charge is a new payment: the history on screen is fetched again.
    await waitFor(() => expect(historyFetches).toBe(2));
  });
});
