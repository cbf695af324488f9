import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TStaffRole } from '@dealerpass/domain/admin/roles';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { createQueryClient } from '../../../lib/react-query.ts';
import { StaffMemberProvider } from '../staff-member.tsx';
import StaffPage from './staff-page.tsx';

const fetchMock = vi.fn<typeof fetch>();
const KEY = '00000000-0000-4000-8000-0000000000aa';

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

const MEMBERS = [
  {
    id: '11111111-1111-4111-8111-111111111111',
    email: 'sam@dealerpass.example',
    name: 'Sam Support',
    role: 'support',
    enrolled: true,
    disabled: false,
    createdAt: '2026-11-01T12:00:00Z',
  },
  {
    id: '22222222-2222-4222-8222-222222222222',
    email: 'new@dealerpass.example',
    name: 'Nia New',
    role: 'billing',
    enrolled: false,
    disabled: false,
    createdAt: '2026-11-20T12:00:00Z',
  },
];

function renderPage(role: TStaffRole) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <StaffMemberProvider
          member={{ email: 'a@x.example', name: 'A', role, secondFactor: true, enrolled: true }}
        >
          <StaffPage />
        </StaffMemberProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
});

describe('StaffPage (/admin/staff)', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(crypto, 'randomUUID').mockReturnValue(KEY);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    fetchMock.mockReset();
  });

  it('lists the members and resets an enrolled member’s authenticator with a reason and a key', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { data: MEMBERS }));
    fetchMock.mockResolvedValueOnce(json(200, { data: { auditId: 7 } }));
    fetchMock.mockResolvedValueOnce(json(200, { data: MEMBERS }));
    const user = userEvent.setup();
    renderPage('admin');

    const sam = await screen.findByRole('row', { name: /Sam Support/ });
    const nia = screen.getByRole('row', { name: /Nia New/ });
    // Only an enrolled member has an authenticator to reset.
    expect(within(nia).queryByRole('button', { name: 'Reset authenticator' })).toBeNull();
    expect(within(nia).getByText('Not yet')).toBeTruthy();

    await user.click(within(sam).getByRole('button', { name: 'Reset authenticator' }));
    const dialog = document.querySelector<HTMLDialogElement>('dialog[open]')!;
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Lost phone');
    await user.click(within(dialog).getByRole('button', { name: 'Reset' }));

    // The outcome stays on the page and takes focus: the button it came from goes away with
    // the member's authenticator (issue 25: focus fell to <body>).
    const outcome = await screen.findByTestId('admin-outcome');
    expect(outcome.textContent).toBe('Sam Support will set up an authenticator again.');
    expect(document.activeElement).toBe(outcome);
    const [url, init] = fetchMock.mock.calls[1]!;
    expect(String(url)).toBe(`/api/admin/staff/${MEMBERS[0]!.id}/reset-second-factor`);
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ requestKey: KEY, reason: 'Lost phone' });
    // The list is read again.
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
  });

  /** Each member action × the outcomes its route documents (issue 25: the server's outcome). */
  const MEMBER_ACTIONS = [
    {
      button: 'Change role',
      confirm: 'Change role',
      choice: 'billing',
      url: `/api/admin/staff/${MEMBERS[0]!.id}/role`,
      body: { requestKey: KEY, reason: 'Team change', role: 'billing' },
      done: "Sam Support's role was changed.",
    },
    {
      button: 'Disable',
      confirm: 'Disable',
      url: `/api/admin/staff/${MEMBERS[0]!.id}/disabled`,
      body: { requestKey: KEY, reason: 'Team change', disabled: true },
      done: 'Sam Support was disabled and signed out.',
    },
  ];
  const REFUSALS = [
    {
      name: 'refused',
      message:
        'The console needs at least one admin who can sign in. Make another member an admin first.',
    },
    { name: 'conflict', message: 'This member is already disabled.' },
  ];

  it.each(MEMBER_ACTIONS)('$button: success shows its text, focused', async (action) => {
    fetchMock.mockResolvedValueOnce(json(200, { data: MEMBERS }));
    fetchMock.mockResolvedValueOnce(json(200, { data: { auditId: 8 } }));
    fetchMock.mockResolvedValueOnce(json(200, { data: MEMBERS }));
    const user = userEvent.setup();
    renderPage('admin');
    const sam = await screen.findByRole('row', { name: /Sam Support/ });
    await user.click(within(sam).getByRole('button', { name: action.button }));
    const dialog = document.querySelector<HTMLDialogElement>('dialog[open]')!;
    if (action.choice)
      await user.selectOptions(within(dialog).getByLabelText(/^New role/), action.choice);
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Team change');
    await user.click(within(dialog).getByRole('button', { name: action.confirm }));
    const outcome = await screen.findByTestId('admin-outcome');
    expect(outcome.textContent).toBe(action.done);
    expect(outcome.className).toContain('admin-outcome--success');
    expect(document.activeElement).toBe(outcome);
    const [url, init] = fetchMock.mock.calls[1]!;
    expect(String(url)).toBe(action.url);
    expect(JSON.parse(String(init?.body))).toEqual(action.body);
  });

  it.each(MEMBER_ACTIONS.flatMap((action) => REFUSALS.map((refusal) => ({ ...action, refusal }))))(
    '$button: $refusal.name shows the server’s reason, nothing green',
    async (action) => {
      fetchMock.mockResolvedValueOnce(json(200, { data: MEMBERS }));
      fetchMock.mockResolvedValueOnce(
        json(409, {
          statusCode: 409,
          code: 'ACTION_NOT_ALLOWED',
          message: action.refusal.message,
          errors: [],
        }),
      );
      const user = userEvent.setup();
      renderPage('admin');
      const sam = await screen.findByRole('row', { name: /Sam Support/ });
      await user.click(within(sam).getByRole('button', { name: action.button }));
      const dialog = document.querySelector<HTMLDialogElement>('dialog[open]')!;
      if (action.choice)
        await user.selectOptions(within(dialog).getByLabelText(/^New role/), action.choice);
      await user.type(within(dialog).getByLabelText(/^Reason/), 'Team change');
      await user.click(within(dialog).getByRole('button', { name: action.confirm }));
      const summary = await within(dialog).findByRole('alert');
      expect(summary.textContent).toContain(action.refusal.message);
      expect(screen.queryByTestId('admin-outcome')).toBeNull();
      expect(document.querySelector('.toast--success')).toBeNull();
    },
  );

  it('offers no Disable for the admin’s own row', async () => {
    fetchMock.mockResolvedValueOnce(
      json(200, { data: [{ ...MEMBERS[0]!, email: 'a@x.example', role: 'admin' }] }),
    );
    renderPage('admin');
    const own = await screen.findByRole('row', { name: /Sam Support/ });
    expect(within(own).queryByRole('button', { name: 'Disable' })).toBeNull();
    expect(within(own).getByRole('button', { name: 'Change role' })).toBeTruthy();
  });

  it('tells a member below admin that staff are for admins, and asks the server nothing', async () => {
    renderPage('billing');
    expect(screen.getByText('Only admins manage staff members.').getAttribute('role')).toBe(
      'alert',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
