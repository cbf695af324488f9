import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IInvoice } from '@dealerpass/domain/schemas/annual-billing';
import type { TStaffRole } from '@dealerpass/domain/admin/roles';
import type { TStaffAccountDetail } from '@dealerpass/domain/admin/console-views';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { createQueryClient } from '../../../lib/react-query.ts';
import { MemoryRouter, Route, Routes } from '../../../lib/router/router.tsx';
import AccountPage from '../routes/account-page.tsx';
import { StaffMemberProvider } from '../staff-member.tsx';

/**
 * Annual billing by check on the console's account page (R14, issue 28): every invoice dialog,
 * for each outcome (success, refused 400, refused 409 with the server's message, no answer),
 * reports what the server answered; only a success is green, a refusal keeps the dialog open and
 * says why, and focus never falls to <body>. Requests carry exactly what their route takes.
 */

const USER_ID = '55555555-5555-4555-8555-555555555555';
const OPEN_ID = '66666666-6666-4666-8666-666666666666';
const PAID_ID = '77777777-7777-4777-8777-777777777777';
const fetchMock = vi.fn<typeof fetch>();

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

const OPEN: IInvoice = {
  id: OPEN_ID,
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

const PAID: IInvoice = {
  ...OPEN,
  id: PAID_ID,
  number: 'DP-2025-000003',
  status: 'paid',
  issuedOn: '2025-11-20',
  dueOn: '2026-01-05',
  periodStart: '2026-01-05',
  periodEnd: '2027-01-04',
  paidOn: '2025-12-15',
  check: { number: '1234', receivedOn: '2025-12-15', amountCents: 78840 },
};

function detail(invoices: IInvoice[]): TStaffAccountDetail {
  return {
    profile: {
      userId: USER_ID,
      dealerpassUserId: 'DP-9',
      karId: 'kar-9',
      legacyUsername: null,
      email: 'lee@dealer.example',
      altEmail: null,
      firstName: 'Lee',
      lastName: 'Annual',
      dealership: 'Lee Motors',
      phone: '5175550100',
      altPhone: null,
      address1: '1 Main St',
      address2: null,
      city: 'Lansing',
      state: 'MI',
      zip: '48901',
      country: 'US',
      createdAt: '2025-10-01T12:00:00Z',
      card: { brand: 'visa', last4: '1111', expiration: '1230' },
      autoCheckPasswordSet: false,
      carfaxConnected: false,
      identity: { passwordSet: true, emailVerified: true },
    },
    status: {
      accountStatus: 'active',
      accountStatusDetails: null,
      nextBillDate: '2026-12-05',
      history: [],
    },
    subscription: {
      codes: ['NADA'],
      autoExtras: [],
      pendingRemovals: [],
      pendingRemovalsAt: null,
      cycleAnchor: '2025-10-05',
      currentPeriodStart: '2026-11-05',
      currentPeriodEnd: '2026-12-05',
      failedAttempts: 0,
      nextRetryAt: null,
      cancelRequestedAt: null,
      scheduledAttempts: { made: 0, left: 3 },
      nextScheduledRetryAt: null,
    },
    changes: [],
    payments: [],
    refunds: [],
    declines: [],
    retries: [],
    balance: { cents: 0, entries: [] },
    sessions: [],
    integrations: {
      carfax: { connected: false, connectedAt: null },
      autoCheck: { autoCheckId: null, enabled: false, autoPurchase: false, passwordSet: false },
    },
    emails: [],
    invoices,
    annualPeriod: invoices.some((invoice) => invoice.status === 'paid')
      ? { start: '2026-01-05', end: '2027-01-04' }
      : null,
  };
}

interface IOutcome {
  name: string;
  /** 0: no answer at all (the network failed). */
  status: number;
  body?: unknown;
  text: string;
}

interface ICase {
  button: string;
  /** The row the button is in (its invoice number), or none for the section's own action. */
  row?: string;
  confirm: string;
  path: string;
  invoices: IInvoice[];
  fill?: { reason?: string; checkNumber?: string; amount?: string; receivedOn?: string };
  /** What the request must carry besides its key. */
  sent: Record<string, unknown>;
  success: { status: number; invoice: IInvoice; text: string };
  /** The 409's own message, where the route documents one. */
  conflict?: string;
}

const NETWORK_TEXT = 'The server could not be reached.';

function outcomesOf(action: ICase): IOutcome[] {
  const refused400 = 'The request is not valid. Please reload the page.';
  const conflict = action.conflict ?? 'This action is not possible in the account’s current state.';
  return [
    {
      name: 'success',
      status: action.success.status,
      body: { data: { invoice: action.success.invoice } },
      text: action.success.text,
    },
    {
      name: 'refused 400',
      status: 400,
      body: { statusCode: 400, code: 'VALIDATION_ERROR', message: refused400, errors: [] },
      text: refused400,
    },
    {
      name: 'refused 409',
      status: 409,
      body: { statusCode: 409, code: 'ACTION_NOT_ALLOWED', message: conflict, errors: [] },
      text: conflict,
    },
    { name: 'network failure', status: 0, text: NETWORK_TEXT },
  ];
}

const ISSUED: IInvoice = { ...OPEN, number: 'DP-2026-000018' };

const CASES: ICase[] = [
  {
    button: 'Set up annual billing',
    confirm: 'Issue invoice',
    path: 'annual-billing',
    invoices: [],
    fill: { reason: 'Dealer asked by phone' },
    sent: { reason: 'Dealer asked by phone' },
    success: {
      status: 201,
      invoice: ISSUED,
      text: 'Invoice DP-2026-000018 for $788.40 was issued and e-mailed, due Jan 5, 2027.',
    },
  },
  {
    button: 'Void invoice',
    row: OPEN.number,
    confirm: 'Void invoice',
    path: `invoices/${OPEN_ID}/void`,
    invoices: [OPEN],
    fill: { reason: 'Dealer changed their mind' },
    sent: { reason: 'Dealer changed their mind' },
    success: {
      status: 200,
      invoice: { ...OPEN, status: 'void', voidedOn: '2026-11-27' },
      text: 'Invoice DP-2026-000017 was voided.',
    },
  },
  {
    button: 'Resend invoice',
    row: OPEN.number,
    confirm: 'Resend',
    path: `invoices/${OPEN_ID}/resend`,
    invoices: [OPEN],
    sent: {},
    success: { status: 200, invoice: OPEN, text: 'Invoice DP-2026-000017 was e-mailed again.' },
  },
  {
    button: 'Record a check',
    row: OPEN.number,
    confirm: 'Record check',
    path: `invoices/${OPEN_ID}/check`,
    invoices: [OPEN],
    fill: { checkNumber: '1234', amount: '788.40', receivedOn: '2026-11-26' },
    sent: { checkNumber: '1234', amountCents: 78840, receivedOn: '2026-11-26' },
    success: {
      status: 200,
      invoice: {
        ...OPEN,
        status: 'paid',
        paidOn: '2026-11-26',
        check: { number: '1234', receivedOn: '2026-11-26', amountCents: 78840 },
      },
      text: 'Check 1234 for $788.40 was recorded. Invoice DP-2026-000017 is paid; the annual period runs from Jan 5, 2027 to Jan 4, 2028.',
    },
    conflict: 'The check must be for $788.40, what invoice DP-2026-000017 leaves open.',
  },
  {
    button: 'Record returned check',
    row: PAID.number,
    confirm: 'Record returned check',
    path: `invoices/${PAID_ID}/check/returned`,
    invoices: [PAID],
    fill: { reason: 'Bank returned it: insufficient funds' },
    sent: { reason: 'Bank returned it: insufficient funds' },
    success: {
      status: 200,
      invoice: { ...PAID, check: { ...PAID.check!, returnedOn: '2025-12-20' } },
      text: 'Check 1234 was recorded as returned; its payment is reversed.',
    },
  },
];

function serve(action: ICase, outcome: IOutcome) {
  fetchMock.mockImplementation((input, init) => {
    const path = String(input).split('?')[0]!;
    if (init?.method === 'POST' && path === `/api/admin/accounts/${USER_ID}/${action.path}`) {
      if (outcome.status === 0) return Promise.reject(new TypeError('Failed to fetch'));
      return Promise.resolve(json(outcome.status, outcome.body));
    }
    if (path === `/api/admin/accounts/${USER_ID}`) {
      return Promise.resolve(json(200, { data: detail(action.invoices) }));
    }
    return Promise.resolve(json(200, { data: [] }));
  });
}

function renderPage(role: TStaffRole = 'billing') {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <StaffMemberProvider
          member={{
            email: 'bo@staff.example',
            name: 'Bo',
            role,
            secondFactor: true,
            enrolled: true,
          }}
        >
          <MemoryRouter initialEntries={[`/admin/accounts/${USER_ID}`]}>
            <Routes>
              <Route path="admin/accounts/:userId" element={<AccountPage />} />
            </Routes>
          </MemoryRouter>
        </StaffMemberProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

beforeAll(() => {
  // jsdom has <dialog> without its modal methods.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
});

describe('the account page’s invoices (R14): every dialog reports the server’s answer', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  const cases = CASES.flatMap((action) =>
    outcomesOf(action).map((outcome) => [action.button, outcome.name, action, outcome] as const),
  );

  it.each(cases)('%s, %s', async (_button, _name, action, outcome) => {
    serve(action, outcome);
    const user = userEvent.setup();
    renderPage();
    const section = (await screen.findAllByRole('region', { name: 'Invoices' }))[0]!;
    // The open invoice's actions are a group of their own; a paid one's are in its row.
    const scope = !action.row
      ? section
      : action.row === OPEN.number
        ? within(section).getByRole('group', { name: `Actions for invoice ${OPEN.number}` })
        : within(section).getByRole('row', { name: new RegExp(action.row) });
    const opener = within(scope).getByRole('button', { name: action.button });
    await user.click(opener);
    const dialog = document.querySelector<HTMLDialogElement>('dialog[open]')!;
    expect(dialog).toBeTruthy();
    if (action.fill?.checkNumber) {
      await user.type(within(dialog).getByLabelText(/^Check number/), action.fill.checkNumber);
      await user.type(within(dialog).getByLabelText(/^Amount/), action.fill.amount!);
      const received = within(dialog).getByLabelText(/^Date received/);
      await user.clear(received);
      await user.type(received, action.fill.receivedOn!);
    }
    if (action.fill?.reason) {
      await user.type(within(dialog).getByLabelText(/^Reason/), action.fill.reason);
    }
    await user.click(within(dialog).getByRole('button', { name: action.confirm }));

    // The request: its path, a key, and what the route takes, nothing more.
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(true),
    );
    const [, init] = fetchMock.mock.calls.find(([, call]) => call?.method === 'POST')!;
    const { requestKey, ...rest } = JSON.parse(String(init!.body)) as Record<string, unknown>;
    expect(requestKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(rest).toEqual(action.sent);

    if (outcome.name === 'success') {
      const message = await screen.findByTestId('admin-outcome');
      expect(message.textContent).toBe(outcome.text);
      expect(message.className).toContain('admin-outcome--success');
      await waitFor(() => expect(document.activeElement).toBe(message));
      expect(dialog.open).toBe(false);
    } else {
      const summary = await within(dialog).findByRole('alert');
      expect(summary.textContent).toMatch(/was not (taken|recorded)/);
      expect(summary.textContent).toContain(outcome.text);
      expect(dialog.open).toBe(true);
      expect(screen.queryByTestId('admin-outcome')).toBeNull();
      expect(document.querySelector('.toast--success')).toBeNull();
    }
    expect(document.activeElement).not.toBe(document.body);
  });

  it('lists open, paid and void invoices with their PDFs; support reads them without actions', async () => {
    const voided: IInvoice = {
      ...OPEN,
      id: '88888888-8888-4888-8888-888888888888',
      number: 'DP-2026-000010',
      status: 'void',
      voidedOn: '2026-10-01',
    };
    fetchMock.mockImplementation((input) => {
      const path = String(input).split('?')[0]!;
      if (path === `/api/admin/accounts/${USER_ID}`) {
        return Promise.resolve(json(200, { data: detail([OPEN, voided, PAID]) }));
      }
      return Promise.resolve(json(200, { data: [] }));
    });
    renderPage('support');
    const section = (await screen.findAllByRole('region', { name: 'Invoices' }))[0]!;
    const rows = within(section).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByTestId('invoice-status').textContent)).toEqual([
      'Open',
      'Void since Oct 1, 2026',
      'Paid Dec 15, 2025',
    ]);
    const pdf = within(rows[0]!).getByRole('link', { name: /PDF/ });
    expect(pdf.getAttribute('href')).toBe(`/api/admin/accounts/${USER_ID}/invoices/${OPEN_ID}/pdf`);
    expect(within(section).queryAllByRole('button')).toEqual([]);
    expect(within(section).getByTestId('admin-annual-period').textContent).toBe(
      'Annually by check, paid through Jan 4, 2027 (from Jan 5, 2026)',
    );
  });

  it('offers no set-up to an account R14 leaves out, and says why', async () => {
    const complimentary = detail([]);
    complimentary.status.accountStatusDetails = 'complimentary';
    fetchMock.mockImplementation((input) => {
      const path = String(input).split('?')[0]!;
      if (path === `/api/admin/accounts/${USER_ID}`) {
        return Promise.resolve(json(200, { data: complimentary }));
      }
      return Promise.resolve(json(200, { data: [] }));
    });
    renderPage();
    const section = (await screen.findAllByRole('region', { name: 'Invoices' }))[0]!;
    expect(within(section).queryByRole('button', { name: 'Set up annual billing' })).toBeNull();
    expect(section.textContent).toContain('Complimentary accounts are not billed.');
    expect(within(section).getByText('No invoices.')).toBeTruthy();
  });

  it('refuses a check amount that is not dollars and cents before sending, in the dialog', async () => {
    serve(CASES[3]!, outcomesOf(CASES[3]!)[0]!);
    const user = userEvent.setup();
    renderPage();
    const section = (await screen.findAllByRole('region', { name: 'Invoices' }))[0]!;
    await user.click(within(section).getByRole('button', { name: 'Record a check' }));
    const dialog = document.querySelector<HTMLDialogElement>('dialog[open]')!;
    await user.type(within(dialog).getByLabelText(/^Check number/), '12 34');
    await user.type(within(dialog).getByLabelText(/^Amount/), '788.4.0');
    await user.click(within(dialog).getByRole('button', { name: 'Record check' }));
    const summary = await within(dialog).findByRole('alert');
    expect(summary.textContent).toContain('Enter the check number');
    expect(summary.textContent).toContain('Enter the amount of the check');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });
});
