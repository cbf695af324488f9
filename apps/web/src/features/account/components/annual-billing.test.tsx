import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IAnnualBillingState, IInvoice } from '@dealerpass/domain/schemas/annual-billing';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { createQueryClient } from '../../../lib/react-query.ts';
import { CurrentUserProvider, type ICurrentUser } from '../current-user.tsx';
import { AnnualBilling } from './annual-billing.tsx';
import { BillingSummary } from './billing-summary.tsx';

/**
 * Annual payment by check on Billing Details (R14, issue 28): the offer and its confirmation, the
 * open invoice with "Download invoice" and "Keep paying monthly by card", each write for each
 * outcome (success, refused 400, refused 409 with the server's message, no answer); only a
 * success is green, focus goes to the message or stays in the dialog, never to <body>.
 */

const fetchMock = vi.fn<typeof fetch>();
const ENDPOINT = '/api/users/annualBilling';
const INVOICE_ID = '66666666-6666-4666-8666-666666666666';

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

const INVOICE: IInvoice = {
  id: INVOICE_ID,
  number: 'DP-2026-000017',
  status: 'open',
  issuedOn: '2026-11-27',
  dueOn: '2027-01-05',
  periodStart: '2027-01-05',
  periodEnd: '2028-01-04',
  lines: [
    { label: 'NADA × 12', amountCents: 84000 },
    { label: 'Platform fee × 12', amountCents: 3600 },
  ],
  discountCents: 8760,
  totalCents: 78840,
};

const OFFER_STATE: IAnnualBillingState = {
  offer: {
    monthlyTotalCents: 7300,
    yearTotalCents: 87600,
    discountedTotalCents: 78840,
    periodStart: '2027-01-05',
    remitTo: { payee: 'DealerPass Inc.', lines: ['PO Box 100', 'Detroit, MI 48201'] },
  },
  ineligibleReason: null,
  openInvoice: null,
  annualPeriod: null,
  invoices: [],
};

const OPEN_STATE: IAnnualBillingState = {
  ...OFFER_STATE,
  offer: null,
  openInvoice: INVOICE,
  invoices: [INVOICE],
};

interface IOutcome {
  name: string;
  status: number;
  body?: unknown;
  text: string;
}

const NOT_POSSIBLE = 'Annual billing is not possible while another invoice is open.';
const failures: IOutcome[] = [
  {
    name: 'refused 400',
    status: 400,
    body: {
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: 'The request is not valid. Please reload the page.',
      errors: [],
    },
    text: 'The request is not valid. Please reload the page.',
  },
  {
    name: 'refused 409',
    status: 409,
    body: { statusCode: 409, code: 'ACTION_NOT_ALLOWED', message: NOT_POSSIBLE, errors: [] },
    text: NOT_POSSIBLE,
  },
  { name: 'network failure', status: 0, text: 'The server could not be reached.' },
];

/** Serves the state, and the write's answer (after which the state is `after`). */
function serve(
  state: IAnnualBillingState,
  write?: { path: string; outcome: IOutcome; after: IAnnualBillingState },
) {
  let current = state;
  fetchMock.mockImplementation((input, init) => {
    const path = String(input);
    if (write && init?.method === 'POST' && path === write.path) {
      if (write.outcome.status === 0) return Promise.reject(new TypeError('Failed to fetch'));
      if (write.outcome.status < 300) current = write.after;
      return Promise.resolve(json(write.outcome.status, write.outcome.body));
    }
    if (path === ENDPOINT) return Promise.resolve(json(200, { data: current }));
    return Promise.resolve(json(404, { message: 'Not found' }));
  });
}

function renderSection() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <AnnualBilling />
      </ToastProvider>
    </QueryClientProvider>,
  );
}

function postBodies(): Record<string, unknown>[] {
  return fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([, init]) => JSON.parse(String(init!.body)) as Record<string, unknown>);
}

beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
});

describe('AnnualBilling (R14): the dealer’s offer, invoice and messages', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('says it is loading, then shows the offer’s figures, start date and remit-to address', async () => {
    serve(OFFER_STATE);
    renderSection();
    expect(screen.getByText('Loading annual billing…')).toBeTruthy();
    const offer = await screen.findByTestId('annual-offer');
    expect(within(offer).getByRole('heading').textContent).toBe(
      'Pay annually by check and save 10%',
    );
    expect(screen.getByTestId('annual-year-total').textContent).toBe(
      '$876.00 (12 × $73.00 a month, platform fee included)',
    );
    expect(screen.getByTestId('annual-discounted-total').textContent).toBe(
      '$788.40 (you save $87.60)',
    );
    expect(screen.getByTestId('annual-period-start').textContent).toBe('Jan 05, 2027');
    expect(screen.getByTestId('annual-remit-to').textContent).toBe(
      'DealerPass Inc.PO Box 100Detroit, MI 48201',
    );
  });

  it('shows the load failure with the server’s words and loads again on Try again', async () => {
    let calls = 0;
    fetchMock.mockImplementation(() => {
      calls += 1;
      return Promise.resolve(
        calls === 1
          ? json(503, { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: 'Down for a bit.' })
          : json(200, { data: OFFER_STATE }),
      );
    });
    const user = userEvent.setup();
    renderSection();
    const problem = await screen.findByTestId('annual-error');
    expect(problem.getAttribute('role')).toBe('alert');
    expect(problem.textContent).toContain('Annual billing could not be loaded. Down for a bit.');
    await user.click(within(problem).getByRole('button', { name: 'Try again' }));
    await screen.findByTestId('annual-offer');
  });

  it('shows why there is no offer, and nothing else, for an account that cannot have one', async () => {
    serve({
      ...OFFER_STATE,
      offer: null,
      ineligibleReason: 'Annual billing by check is for active accounts billed monthly.',
    });
    renderSection();
    expect((await screen.findByTestId('annual-ineligible')).textContent).toBe(
      'Annual billing by check is for active accounts billed monthly.',
    );
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByTestId('annual-invoices')).toBeNull();
  });

  it('confirming the offer issues the invoice once per key and then shows it as open', async () => {
    serve(OFFER_STATE, {
      path: ENDPOINT,
      outcome: { name: 'success', status: 201, body: { data: { invoice: INVOICE } }, text: '' },
      after: OPEN_STATE,
    });
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Pay annually by check' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    expect(dialog.textContent).toContain('We issue an invoice for $788.40, due on Jan 05, 2027');
    // The safe choice has focus first.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(dialog).getByRole('button', { name: 'Issue invoice' }));

    const message = await screen.findByTestId('annual-message');
    expect(message.textContent).toBe(
      'Invoice DP-2026-000017 for $788.40 was issued and e-mailed to you. It is due Jan 05, 2027.',
    );
    expect(message.className).toContain('account-notice--success');
    expect(message.parentElement?.getAttribute('role')).toBe('status');
    await waitFor(() => expect(document.activeElement).toBe(message));
    // The offer, and its dialog with it, made way for the invoice.
    expect(dialog.isConnected && (dialog as HTMLDialogElement).open).toBe(false);
    expect(screen.getByTestId('annual-invoice-number').textContent).toBe('DP-2026-000017');
    expect(screen.getByTestId('annual-invoice-amount').textContent).toBe('$788.40');
    expect(screen.getByTestId('annual-invoice-due').textContent).toBe('Jan 05, 2027');
    expect(postBodies()).toEqual([
      {
        requestKey: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
        basedOn: { periodStart: '2027-01-05', discountedTotalCents: 78840 },
      },
    ]);
  });

  it.each(failures)(
    'confirming the offer, $name: the dialog says why and stays open, nothing is green',
    async (outcome) => {
      serve(OFFER_STATE, { path: ENDPOINT, outcome, after: OFFER_STATE });
      const user = userEvent.setup();
      renderSection();
      await user.click(await screen.findByRole('button', { name: 'Pay annually by check' }));
      const dialog = screen.getByRole('dialog', { hidden: true });
      const issue = within(dialog).getByRole('button', { name: 'Issue invoice' });
      await user.click(issue);
      const problem = await within(dialog).findByTestId('annual-offer-problem');
      expect(problem.getAttribute('role')).toBe('alert');
      expect(problem.textContent).toBe(`The invoice was not issued. ${outcome.text}`);
      expect((dialog as HTMLDialogElement).open).toBe(true);
      expect(screen.queryByTestId('annual-message')).toBeNull();
      expect(document.querySelector('.account-notice--success')).toBeNull();
      expect(document.activeElement).not.toBe(document.body);
      // A resend of the same intent carries the same key: one invoice at most.
      await user.click(within(dialog).getByRole('button', { name: 'Issue invoice' }));
      await waitFor(() => expect(postBodies()).toHaveLength(2));
      const [first, second] = postBodies();
      expect(second!.requestKey).toBe(first!.requestKey);
    },
  );

  it('“Keep paying monthly by card” voids the invoice after a confirmation, and says so', async () => {
    serve(OPEN_STATE, {
      path: `${ENDPOINT}/invoices/${INVOICE_ID}/void`,
      outcome: {
        name: 'success',
        status: 200,
        body: { data: { invoice: { ...INVOICE, status: 'void', voidedOn: '2026-11-27' } } },
        text: '',
      },
      after: {
        ...OFFER_STATE,
        invoices: [{ ...INVOICE, status: 'void', voidedOn: '2026-11-27' }],
      },
    });
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Keep paying monthly by card' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    expect(document.activeElement).toBe(
      within(dialog).getByRole('button', { name: 'Keep the invoice' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Void the invoice' }));
    const message = await screen.findByTestId('annual-message');
    expect(message.textContent).toBe(
      'Invoice DP-2026-000017 was voided. Your card goes on being billed monthly.',
    );
    expect(message.className).toContain('account-notice--success');
    await waitFor(() => expect(document.activeElement).toBe(message));
    // The offer is back, and the voided invoice is listed.
    await screen.findByTestId('annual-offer');
    const list = screen.getByTestId('annual-invoices');
    expect(within(list).getAllByRole('row')[1]!.textContent).toContain('Void since Nov 27, 2026');
  });

  it.each(failures)(
    '“Keep paying monthly by card”, $name: the dialog says why and the invoice stays',
    async (outcome) => {
      serve(OPEN_STATE, {
        path: `${ENDPOINT}/invoices/${INVOICE_ID}/void`,
        outcome,
        after: OPEN_STATE,
      });
      const user = userEvent.setup();
      renderSection();
      await user.click(await screen.findByRole('button', { name: 'Keep paying monthly by card' }));
      const dialog = screen.getByRole('dialog', { hidden: true });
      await user.click(within(dialog).getByRole('button', { name: 'Void the invoice' }));
      const problem = await within(dialog).findByTestId('annual-void-problem');
      expect(problem.getAttribute('role')).toBe('alert');
      expect(problem.textContent).toBe(`The invoice was not voided. ${outcome.text}`);
      expect((dialog as HTMLDialogElement).open).toBe(true);
      expect(screen.queryByTestId('annual-message')).toBeNull();
      expect(screen.getByTestId('annual-open-invoice')).toBeTruthy();
      expect(document.activeElement).not.toBe(document.body);
    },
  );

  it('“Download invoice” saves the PDF under the invoice number', async () => {
    const saved: string[] = [];
    const createObjectURL = vi.fn(() => 'blob:invoice');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    fetchMock.mockImplementation((input) =>
      Promise.resolve(
        String(input) === `${ENDPOINT}/invoices/${INVOICE_ID}/pdf`
          ? new Response('%PDF-1.7', { headers: { 'content-type': 'application/pdf' } })
          : json(200, { data: OPEN_STATE }),
      ),
    );
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Download invoice' }));
    await waitFor(() => expect(saved).toEqual(['DP-2026-000017.pdf']));
    expect(screen.queryByTestId('annual-message')).toBeNull();
    click.mockRestore();
  });

  it.each(failures.filter((outcome) => outcome.status !== 400))(
    '“Download invoice”, $name: an alert says it could not be downloaded, and why',
    async (outcome) => {
      fetchMock.mockImplementation((input) => {
        if (String(input) !== `${ENDPOINT}/invoices/${INVOICE_ID}/pdf`) {
          return Promise.resolve(json(200, { data: OPEN_STATE }));
        }
        if (outcome.status === 0) return Promise.reject(new TypeError('Failed to fetch'));
        return Promise.resolve(json(outcome.status, outcome.body));
      });
      const user = userEvent.setup();
      renderSection();
      await user.click(await screen.findByRole('button', { name: 'Download invoice' }));
      const message = await screen.findByTestId('annual-message');
      expect(message.textContent).toBe(`The invoice could not be downloaded. ${outcome.text}`);
      expect(message.parentElement?.getAttribute('role')).toBe('alert');
      expect(message.className).not.toContain('success');
      await waitFor(() => expect(document.activeElement).toBe(message));
    },
  );
});

describe('BillingSummary on an annual period (R14)', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  const USER: ICurrentUser = {
    dealerpassUserId: 'DP-1',
    karId: 'kar-1',
    email: 'lee@dealer.example',
    firstName: 'Lee',
    lastName: 'Annual',
    dealership: 'Lee Motors',
    accountStatus: 'active',
    nextBillDate: '2026-12-05',
    currentBalance: 0,
  };

  function renderSummary() {
    return render(
      <QueryClientProvider client={createQueryClient()}>
        <CurrentUserProvider user={USER} refetch={() => Promise.resolve(USER)}>
          <BillingSummary />
        </CurrentUserProvider>
      </QueryClientProvider>,
    );
  }

  it('says “Billed annually by check, paid through …” and the period’s end is the next cycle', async () => {
    serve({
      ...OFFER_STATE,
      offer: null,
      annualPeriod: { start: '2026-01-05', end: '2027-01-04' },
    });
    renderSummary();
    expect((await screen.findByTestId('summary-annual')).textContent).toBe(
      'Billed annually by check, paid through Jan 04, 2027',
    );
    expect(screen.getByTestId('summary-next-billing').textContent).toBe('Jan 04, 2027');
  });

  it('keeps the monthly figures when the account is billed monthly', async () => {
    serve(OFFER_STATE);
    renderSummary();
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await screen.findByTestId('summary-next-billing');
    expect(screen.queryByTestId('summary-annual')).toBeNull();
    expect(screen.getByTestId('summary-next-billing').textContent).toBe('Dec 05, 2026');
  });
});
