import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TStaffAccountDetail } from '@dealerpass/domain/admin/console-views';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { createQueryClient } from '../../../lib/react-query.ts';
import { MemoryRouter, Route, Routes } from '../../../lib/router/router.tsx';
import { StaffMemberProvider } from '../staff-member.tsx';
import AccountPage from './account-page.tsx';

/**
 * Issue 25's class rule on the account page: a message reports the server's outcome, never the
 * click. Every staff action of the page, for each outcome its route documents (docs in
 * routes/admin/account-actions.ts: success, declined, refused, conflict), shows that outcome's text; only a
 * success is green; and focus goes to the message that reports it, never to <body>.
 */

const USER_ID = '33333333-3333-4333-8333-333333333333';
const PAYMENT_ID = '44444444-4444-4444-8444-444444444444';
const fetchMock = vi.fn<typeof fetch>();

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

const ACCOUNT_STATE = {
  userId: USER_ID,
  accountStatus: 'validating payment',
  complimentary: false,
  balanceCents: 6800,
};

/** A validating-payment account with a card, a refundable payment and an unverified ID. */
const DETAIL: TStaffAccountDetail = {
  profile: {
    userId: USER_ID,
    dealerpassUserId: 'DP-1',
    karId: 'kar-1',
    legacyUsername: null,
    email: 'pat@dealer.example',
    altEmail: null,
    firstName: 'Pat',
    lastName: 'Dealer',
    dealership: 'Pat Motors',
    phone: '5175550100',
    altPhone: null,
    address1: '1 Main St',
    address2: null,
    city: 'Lansing',
    state: 'MI',
    zip: '48901',
    country: 'US',
    createdAt: '2026-10-01T12:00:00Z',
    card: { brand: 'visa', last4: '1111', expiration: '1230' },
    autoCheckPasswordSet: false,
    carfaxConnected: false,
    identity: { passwordSet: false, emailVerified: false },
  },
  status: {
    accountStatus: 'validating payment',
    accountStatusDetails: null,
    nextBillDate: '2026-11-28',
    history: [],
  },
  subscription: {
    codes: ['KBB'],
    autoExtras: [],
    pendingRemovals: [],
    pendingRemovalsAt: null,
    cycleAnchor: '2026-10-28',
    currentPeriodStart: '2026-10-28',
    currentPeriodEnd: '2026-11-28',
    failedAttempts: 1,
    nextRetryAt: '2026-11-29T15:00:00Z',
    cancelRequestedAt: null,
    scheduledAttempts: { made: 1, left: 3 },
    nextScheduledRetryAt: '2026-11-29T15:00:00Z',
  },
  changes: [],
  payments: [
    {
      paymentId: PAYMENT_ID,
      activationDate: '2026-10-28',
      amountCents: 6800,
      refundedCents: 0,
      refundableCents: 6800,
      chargedBackAt: null,
      status: 'succeeded',
      cardBrand: 'visa',
      cardLast4: '1111',
      gatewayTransactionId: 'txn-1',
      createdAt: '2026-10-28T15:00:00Z',
      receiptUrl: `/api/admin/accounts/${USER_ID}/payments/${PAYMENT_ID}/receipt`,
    },
  ],
  refunds: [],
  declines: [],
  retries: [],
  balance: { cents: 6800, entries: [] },
  sessions: [],
  integrations: {
    carfax: { connected: false, connectedAt: null },
    autoCheck: { autoCheckId: null, enabled: false, autoPurchase: false, passwordSet: false },
  },
  emails: [],
  invoices: [],
  annualPeriod: null,
};

const ACTION_OK = { auditId: 9, repeated: false, account: ACCOUNT_STATE };

/** A refusal as the server words it (AppError's body). */
const refused = (code: string, message: string) => ({
  status: 409,
  body: { statusCode: 409, code, message, errors: [] },
});

const NOT_ALLOWED = refused(
  'ACTION_NOT_ALLOWED',
  'This action is not possible in the account’s current state.',
);
const IN_PROGRESS = refused(
  'ACTION_IN_PROGRESS',
  'This action is already being processed. Please wait a moment.',
);

interface ActionCase {
  /** The button on the page, and the dialog's confirm button. */
  button: string;
  confirm: string;
  path: string;
  /** Typed in the dialog before confirming. */
  fill?: { reason?: string; amount?: string; choice?: string };
  outcomes: {
    name: string;
    status: number;
    body: unknown;
    text: string;
    tone: 'success' | 'problem';
  }[];
}

const standard = (done: string) => [
  { name: 'success', status: 200, body: { data: ACTION_OK }, text: done, tone: 'success' as const },
  { name: 'refused', ...NOT_ALLOWED, text: NOT_ALLOWED.body.message, tone: 'problem' as const },
  { name: 'conflict', ...IN_PROGRESS, text: IN_PROGRESS.body.message, tone: 'problem' as const },
];

const ACTIONS: ActionCase[] = [
  {
    button: 'Resend verification e-mail',
    confirm: 'Send',
    path: 'resend-verification',
    outcomes: standard('The verification e-mail was sent.'),
  },
  {
    button: 'End sessions',
    confirm: 'End sessions',
    path: 'end-sessions',
    outcomes: standard('The sessions were ended.'),
  },
  {
    button: 'Block',
    confirm: 'Block',
    path: 'block',
    fill: { reason: 'Fraud report' },
    outcomes: standard('The account was blocked.'),
  },
  {
    button: 'Make complimentary',
    confirm: 'Make complimentary',
    path: 'complimentary',
    outcomes: standard('The account is complimentary.'),
  },
  {
    button: 'Retry renewal now',
    confirm: 'Retry now',
    path: 'retry-renewal',
    outcomes: [
      {
        name: 'paid',
        status: 200,
        body: {
          data: {
            ...ACTION_OK,
            account: { ...ACCOUNT_STATE, accountStatus: 'active', balanceCents: 0 },
            outcome: 'paid',
            declineReason: null,
          },
        },
        text: 'The renewal was paid. The account is active again.',
        tone: 'success',
      },
      {
        name: 'declined',
        status: 200,
        body: { data: { ...ACTION_OK, outcome: 'declined', declineReason: 'insufficient_funds' } },
        text: 'The card was declined (insufficient funds). The account stays in validating payment; its scheduled retries are unchanged.',
        tone: 'problem',
      },
      {
        name: 'not answered',
        status: 200,
        body: { data: { ...ACTION_OK, outcome: 'pending', declineReason: null } },
        text: 'The gateway did not answer. The charge is sent again at the next scheduled retry, and is taken once at most.',
        tone: 'problem',
      },
      { name: 'refused', ...NOT_ALLOWED, text: NOT_ALLOWED.body.message, tone: 'problem' },
      { name: 'conflict', ...IN_PROGRESS, text: IN_PROGRESS.body.message, tone: 'problem' },
    ],
  },
  {
    button: 'Adjust balance',
    confirm: 'Adjust balance',
    path: 'balance-adjustments',
    fill: { choice: 'credit', amount: '25', reason: 'Goodwill credit' },
    outcomes: standard('The balance was adjusted.'),
  },
  {
    button: 'Refund',
    confirm: 'Refund',
    path: `payments/${PAYMENT_ID}/refund`,
    fill: { reason: 'Charged twice' },
    outcomes: [
      {
        name: 'success',
        status: 200,
        body: {
          data: {
            ...ACTION_OK,
            refund: {
              refundId: 'r-1',
              paymentId: PAYMENT_ID,
              amountCents: 6800,
              status: 'succeeded',
              paymentRefundedCents: 6800,
              refundableCents: 0,
            },
          },
        },
        text: 'The refund went through.',
        tone: 'success',
      },
      {
        name: 'declined by the gateway',
        status: 502,
        body: {
          statusCode: 502,
          code: 'REFUND_FAILED',
          message: 'The payment gateway refused the refund. Nothing was refunded.',
          errors: [],
        },
        text: 'The payment gateway refused the refund. Nothing was refunded.',
        tone: 'problem',
      },
      {
        name: 'refused',
        ...refused('REFUND_NOT_ALLOWED', 'This payment cannot be refunded for that amount.'),
        text: 'This payment cannot be refunded for that amount.',
        tone: 'problem',
      },
      { name: 'conflict', ...IN_PROGRESS, text: IN_PROGRESS.body.message, tone: 'problem' },
    ],
  },
  {
    button: 'Record chargeback',
    confirm: 'Record chargeback',
    path: `payments/${PAYMENT_ID}/chargeback`,
    fill: { reason: 'Network dispute' },
    outcomes: standard('The chargeback was recorded.'),
  },
];

function serve(action: ActionCase, outcome: ActionCase['outcomes'][number]) {
  fetchMock.mockImplementation((input, init) => {
    const path = String(input).split('?')[0]!;
    if (init?.method === 'POST' && path === `/api/admin/accounts/${USER_ID}/${action.path}`) {
      return Promise.resolve(json(outcome.status, outcome.body));
    }
    if (path === `/api/admin/accounts/${USER_ID}`) {
      return Promise.resolve(json(200, { data: DETAIL }));
    }
    return Promise.resolve(json(200, { data: [] }));
  });
}

function renderPage() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <StaffMemberProvider
          member={{
            email: 'ada@staff.example',
            name: 'Ada',
            role: 'admin',
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

describe('the account page: every action reports the server’s outcome (issue 25)', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  const cases = ACTIONS.flatMap((action) =>
    action.outcomes.map((outcome) => [action.button, outcome.name, action, outcome] as const),
  );

  it.each(cases)('%s, %s: the outcome’s text', async (_button, _name, action, outcome) => {
    serve(action, outcome);
    const user = userEvent.setup();
    renderPage();
    const opener = await screen.findByRole('button', { name: action.button });
    await user.click(opener);
    // Every action's <dialog> is on the page; the one opened is the open one.
    const dialog = document.querySelector<HTMLDialogElement>('dialog[open]')!;
    expect(dialog).toBeTruthy();
    if (action.fill?.choice) {
      await user.selectOptions(within(dialog).getByLabelText(/^Adjustment/), action.fill.choice);
    }
    if (action.fill?.amount) {
      const amount = within(dialog).getByLabelText(/^Amount/);
      await user.clear(amount);
      await user.type(amount, action.fill.amount);
    }
    if (action.fill?.reason) {
      await user.type(within(dialog).getByLabelText(/^Reason/), action.fill.reason);
    }
    await user.click(within(dialog).getByRole('button', { name: action.confirm }));

    if (outcome.status === 200) {
      // On the page, kept, focused, and green only for a success.
      const message = await screen.findByTestId('admin-outcome');
      expect(message.textContent).toBe(outcome.text);
      await waitFor(() => expect(document.activeElement).toBe(message));
      expect(message.className.includes('admin-outcome--success')).toBe(outcome.tone === 'success');
      const toast = screen
        .getAllByTestId('toast')
        .find((t) => t.textContent?.includes(outcome.text));
      expect(toast).toBeTruthy();
      expect(toast!.className.includes('toast--success')).toBe(outcome.tone === 'success');
      expect(toast!.closest('[role]')?.getAttribute('role')).toBe(
        outcome.tone === 'success' ? 'status' : 'alert',
      );
    } else {
      // Refused, conflict or the gateway's refusal: the dialog stays open and says why, and
      // nothing on the page says it worked.
      const summary = await within(dialog).findByRole('alert');
      expect(summary.textContent).toContain('The action was not taken');
      expect(summary.textContent).toContain(outcome.text);
      expect(screen.queryByTestId('admin-outcome')).toBeNull();
      expect(document.querySelector('.toast--success')).toBeNull();
    }
    expect(document.activeElement).not.toBe(document.body);
  });
});

describe('the account page: a pending cancellation’s day (decision 058)', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  const facts = async () => {
    renderPage();
    await screen.findByText('Next bill date');
    return [...document.querySelectorAll('.admin-facts dt')].map((term) => term.textContent);
  };

  it('shows when a cancellation takes effect, past a paid year that has not begun', async () => {
    const pending: TStaffAccountDetail = {
      ...DETAIL,
      status: {
        ...DETAIL.status,
        accountStatus: 'pending cancel',
        nextBillDate: '2026-04-10',
        cancellationTakesEffect: '2027-05-10',
      },
    };
    fetchMock.mockImplementation((input) =>
      Promise.resolve(
        String(input).split('?')[0] === `/api/admin/accounts/${USER_ID}`
          ? json(200, { data: pending })
          : json(200, { data: [] }),
      ),
    );
    expect(await facts()).toContain('Cancellation takes effect');
    const term = screen.getByText('Cancellation takes effect');
    expect(term.nextElementSibling?.textContent).toBe('May 10, 2027');
  });

  it('has no such line for an account that is not pending cancel', async () => {
    fetchMock.mockImplementation((input) =>
      Promise.resolve(
        String(input).split('?')[0] === `/api/admin/accounts/${USER_ID}`
          ? json(200, { data: DETAIL })
          : json(200, { data: [] }),
      ),
    );
    expect(await facts()).not.toContain('Cancellation takes effect');
  });
});
