import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  TAdjustSubscriptionPreview,
  TAdjustSubscriptionResult,
} from '@dealerpass/domain/admin/account-actions';
import type { TStaffAccountDetail } from '@dealerpass/domain/admin/console-views';
import type { TStaffRole } from '@dealerpass/domain/admin/roles';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { createQueryClient } from '../../../lib/react-query.ts';
import { StaffMemberProvider } from '../staff-member.tsx';
import { AccountActions } from './account-actions.tsx';
import type { IActionOutcome } from './action-dialog.tsx';
import { AdjustSubscriptionButton } from './adjust-subscription.tsx';

const USER_ID = '11111111-1111-4111-8111-111111111111';
const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const DETAIL = {
  profile: {
    userId: USER_ID,
    firstName: 'Pat',
    lastName: 'Lee',
    email: 'pat@example.com',
    card: { brand: 'visa', last4: '1111', expiration: '12/30' },
    identity: null,
  },
  status: { accountStatus: 'active', accountStatusDetails: null, nextBillDate: '2026-04-10' },
  subscription: {
    codes: ['NADA'],
    autoExtras: [],
    pendingRemovals: [],
    pendingRemovalsAt: null,
  },
  balance: { cents: 0, entries: [] },
} as unknown as TStaffAccountDetail;

function previewOf(
  overrides: Partial<TAdjustSubscriptionPreview> = {},
): TAdjustSubscriptionPreview {
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
    complimentary: false,
    ...overrides,
  };
}

const ADD_MMR = previewOf({
  added: ['MMR'],
  chargeTodayCents: 3355,
  nextBillCents: 13800,
  additions: [{ code: 'MMR', monthlyCents: 6500, free: false }],
});

function resultOf(
  outcome: TAdjustSubscriptionResult['outcome'],
  overrides: Partial<TAdjustSubscriptionResult> = {},
): TAdjustSubscriptionResult {
  return {
    auditId: 7,
    repeated: false,
    account: { userId: USER_ID, accountStatus: 'active', complimentary: false, balanceCents: 0 },
    outcome,
    change: {
      ...ADD_MMR,
      changeId: 'c1',
      paymentId: outcome === 'charged' ? 'p1' : null,
    },
    declineReason: null,
    ...overrides,
  };
}

/** The server as the dialog calls it: the preview by codes, and `post` for the change. */
function serve(options: { preview?: TAdjustSubscriptionPreview; post?: () => Response } = {}) {
  fetchMock.mockImplementation(async (input) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.includes('/subscription-change?')) {
      const codes = new URL(url, 'http://x').searchParams.get('codes');
      return json(200, { data: codes === 'NADA' ? previewOf() : (options.preview ?? ADD_MMR) });
    }
    if (url.endsWith('/subscription-change') && options.post) return options.post();
    return json(404, { code: 'NOT_FOUND', message: 'not found' });
  });
}

const posted = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);

function renderButton(onDone: (outcome: IActionOutcome) => void, detail = DETAIL) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <AdjustSubscriptionButton detail={detail} onDone={onDone} />
      </ToastProvider>
    </QueryClientProvider>,
  );
}

/** Opens the dialog, ticks Manheim Market Report, types a reason and confirms. */
async function addMmr() {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Change subscriptions' }));
  const dialog = screen.getByRole('dialog', { hidden: true });
  await user.click(
    await within(dialog).findByRole('checkbox', { name: /^Manheim Market Report \$/ }),
  );
  await within(dialog).findByText(/\$33\.55 \(16 of 31 days left in this period\)/);
  await user.type(within(dialog).getByLabelText(/^Reason/), 'Dealer called');
  await user.click(within(dialog).getByRole('button', { name: 'Confirm change' }));
  return dialog;
}

beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
});

/** "Adjust" (issue 28): each outcome the route documents, as the console says it. */
describe('AdjustSubscriptionButton', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('charged: previews the prorated charge and the card, sends the basis and the reason, and says what was charged', async () => {
    serve({ post: () => json(200, { data: resultOf('charged') }) });
    const onDone = vi.fn();
    renderButton(onDone);
    const dialog = await addMmr();
    expect(dialog.textContent).toContain('Visa ending in 1111');
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(onDone.mock.calls[0]![0]).toEqual({
      tone: 'success',
      text: 'The subscriptions were changed. $33.55 was charged to Visa ending in 1111, and the dealer was e-mailed the receipt.',
    });
    expect(posted()).toEqual([
      {
        // R3: a second paid item brings the extras with it.
        codes: ['NADA', 'MMR', 'CF', 'CF_S', 'AC', 'AC_S'],
        basedOn: { codes: ['NADA'], pendingRemovals: [] },
        reason: 'Dealer called',
        requestKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    ]);
  });

  it('declined: never green; says nothing was charged or changed', async () => {
    serve({
      post: () =>
        json(200, { data: resultOf('declined', { declineReason: 'insufficient_funds' }) }),
    });
    const onDone = vi.fn();
    renderButton(onDone);
    await addMmr();
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(onDone.mock.calls[0]![0]).toEqual({
      tone: 'declined',
      text: 'The card was declined (insufficient funds). Nothing was charged and the subscriptions were not changed.',
    });
    expect(screen.queryByRole('status', { name: /changed/ })).toBeNull();
  });

  it('refused: the server’s reason stays in the dialog, nothing is reported as done', async () => {
    const message = 'This account’s subscriptions cannot be changed in its current status.';
    serve({
      post: () => json(409, { statusCode: 409, code: 'ACTION_NOT_ALLOWED', message, errors: [] }),
    });
    const onDone = vi.fn();
    renderButton(onDone);
    const dialog = await addMmr();
    const summary = await within(dialog).findByRole('alert');
    expect(summary.textContent).toContain('The subscriptions were not changed');
    expect(summary.textContent).toContain(message);
    expect(onDone).not.toHaveBeenCalled();
  });

  it('conflict: asks to review the change, and the next confirmation is a new request', async () => {
    const message = 'The subscriptions changed since this preview.';
    let answers = 0;
    serve({
      post: () => {
        answers += 1;
        return answers === 1
          ? json(409, { statusCode: 409, code: 'CHANGE_SELECTION_STALE', message, errors: [] })
          : json(200, { data: resultOf('charged') });
      },
    });
    const onDone = vi.fn();
    renderButton(onDone);
    const dialog = await addMmr();
    const summary = await within(dialog).findByRole('alert');
    expect(summary.textContent).toContain('Review the change');
    expect(summary.textContent).toContain(message);
    expect(onDone).not.toHaveBeenCalled();
    // The dialog starts again from the account's selection: MMR is unticked, nothing to confirm.
    expect(
      within(dialog).getByRole<HTMLInputElement>('checkbox', { name: /^Manheim Market Report \$/ })
        .checked,
    ).toBe(false);
  });

  it('pending: says the change is not made yet, and a resend of it keeps its key', async () => {
    serve({ post: () => json(200, { data: resultOf('pending') }) });
    const onDone = vi.fn();
    renderButton(onDone);
    await addMmr();
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(onDone.mock.calls[0]![0]).toMatchObject({ tone: 'pending' });
    expect(onDone.mock.calls[0]![0].text).toContain('the card is charged once at most');
  });

  it('complimentary: shows that nothing is charged, and says so after the change', async () => {
    const free = previewOf({
      ...ADD_MMR,
      chargeTodayCents: 0,
      nextBillCents: 0,
      complimentary: true,
    });
    serve({
      preview: free,
      post: () =>
        json(200, {
          data: resultOf('applied', { change: { ...free, changeId: 'c1', paymentId: null } }),
        }),
    });
    const onDone = vi.fn();
    renderButton(onDone);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Change subscriptions' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    await user.click(
      await within(dialog).findByRole('checkbox', { name: /^Manheim Market Report \$/ }),
    );
    expect((await within(dialog).findByTestId('adjust-charge-today')).textContent).toBe(
      '$0.00 (complimentary)',
    );
    expect(dialog.textContent).toContain('The account is complimentary: nothing is charged');
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Comp account');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm change' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(onDone.mock.calls[0]![0]).toEqual({
      tone: 'success',
      text: 'The subscriptions were changed. Nothing was charged.',
    });
  });

  it('no card on file: says the dealer must add one and keeps Confirm disabled', async () => {
    serve({ preview: { ...ADD_MMR, cardRequired: true } });
    renderButton(vi.fn(), { ...DETAIL, profile: { ...DETAIL.profile, card: null } });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Change subscriptions' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    await user.click(
      await within(dialog).findByRole('checkbox', { name: /^Manheim Market Report \$/ }),
    );
    await within(dialog).findByTestId('adjust-card-required');
    const confirm = within(dialog).getByRole<HTMLButtonElement>('button', {
      name: 'Confirm change',
    });
    expect(confirm.disabled).toBe(true);
  });

  it('asks a reason before sending anything', async () => {
    serve({ post: () => json(200, { data: resultOf('charged') }) });
    renderButton(vi.fn());
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Change subscriptions' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    await user.click(
      await within(dialog).findByRole('checkbox', { name: /^Manheim Market Report \$/ }),
    );
    await within(dialog).findByText(/\$33\.55/);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm change' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'Enter a reason of 3 to 500 characters.',
    );
    expect(posted()).toEqual([]);
  });

  it.each([
    ['support', false],
    ['billing', true],
    ['admin', true],
  ] as const)('is offered to %s: %s', (role: TStaffRole, offered) => {
    serve();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <StaffMemberProvider
            member={{ email: 'm@x.example', name: 'M', role, secondFactor: true, enrolled: true }}
          >
            <AccountActions detail={DETAIL} onChanged={() => {}} />
          </StaffMemberProvider>
        </ToastProvider>
      </QueryClientProvider>,
    );
    expect(Boolean(screen.queryByRole('button', { name: 'Change subscriptions' }))).toBe(offered);
  });
});
