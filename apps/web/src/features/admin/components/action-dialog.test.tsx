import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { ActionButton, type IActionDialogSpec, type IActionInput } from './action-dialog.tsx';

const REFUND: IActionDialogSpec = {
  label: 'Refund',
  title: 'Refund the payment',
  description: <p>Back to the card.</p>,
  confirmLabel: 'Refund now',
  amount: { label: 'Amount to refund', maxCents: 5000 },
  done: 'The refund went through.',
};

beforeAll(() => {
  // jsdom has <dialog> without its modal methods.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
});

describe('ActionButton (decision 026: one request key per opening, amounts in cents)', () => {
  let keys = 0;
  beforeEach(() => {
    keys = 0;
    vi.spyOn(crypto, 'randomUUID').mockImplementation(
      () =>
        `00000000-0000-4000-8000-00000000000${++keys}` as `${string}-${string}-${string}-${string}-${string}`,
    );
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  function renderButton(run: (input: IActionInput) => Promise<unknown>, spec = REFUND) {
    return render(
      <ToastProvider>
        <ActionButton spec={spec} run={run} />
      </ToastProvider>,
    );
  }

  it('sends the dollars typed as cents with the reason, and the same key however often it is sent', async () => {
    let finish: () => void = () => undefined;
    const run = vi.fn(
      () =>
        new Promise<unknown>((resolve) => {
          finish = () => resolve({});
        }),
    );
    const user = userEvent.setup();
    renderButton(run);

    await user.click(screen.getByRole('button', { name: 'Refund' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    await user.type(within(dialog).getByLabelText(/^Amount to refund/), '12.5');
    await user.type(within(dialog).getByLabelText(/^Reason/), '  Charged twice  ');
    await user.dblClick(within(dialog).getByRole('button', { name: 'Refund now' }));
    await waitFor(() => expect(run).toHaveBeenCalled());
    finish();
    await screen.findByText('The refund went through.');

    for (const [input] of run.mock.calls as unknown as [IActionInput][]) {
      expect(input).toEqual({
        requestKey: '00000000-0000-4000-8000-000000000001',
        reason: 'Charged twice',
        amountCents: 1250,
      });
    }

    // Opening the dialog again is a new request: a new key.
    run.mockResolvedValue({});
    await user.click(screen.getByRole('button', { name: 'Refund' }));
    const again = screen.getByRole('dialog', { hidden: true });
    await user.type(within(again).getByLabelText(/^Amount to refund/), '1');
    await user.type(within(again).getByLabelText(/^Reason/), 'Goodwill');
    await user.click(within(again).getByRole('button', { name: 'Refund now' }));
    await waitFor(() =>
      expect(run).toHaveBeenLastCalledWith({
        requestKey: '00000000-0000-4000-8000-000000000002',
        reason: 'Goodwill',
        amountCents: 100,
      }),
    );
  });

  it('refuses an amount above what may be refunded, and a missing reason, before sending', async () => {
    const run = vi.fn(() => Promise.resolve({}));
    const user = userEvent.setup();
    renderButton(run);

    await user.click(screen.getByRole('button', { name: 'Refund' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    await user.type(within(dialog).getByLabelText(/^Amount to refund/), '50.01');
    await user.click(within(dialog).getByRole('button', { name: 'Refund now' }));

    const summary = await within(dialog).findByRole('alert');
    expect(summary.textContent).toContain('Enter at most $50.00.');
    expect(summary.textContent).toContain('Give a reason of at least 3 characters.');
    expect(run).not.toHaveBeenCalled();
  });

  it('leaves an optional reason out of the request when none is typed', async () => {
    const run = vi.fn(() => Promise.resolve({}));
    const user = userEvent.setup();
    renderButton(run, {
      label: 'End sessions',
      description: <p>Signed out everywhere.</p>,
      confirmLabel: 'End them',
      reasonOptional: true,
      done: 'Ended.',
    });

    await user.click(screen.getByRole('button', { name: 'End sessions' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    expect(within(dialog).getByLabelText(/^Reason \(optional\)/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'End them' }));
    await waitFor(() =>
      expect(run).toHaveBeenCalledWith({ requestKey: '00000000-0000-4000-8000-000000000001' }),
    );
  });
  it('announces the server’s refusal in the dialog, keeps it open, and sends the same key again', async () => {
    const run = vi
      .fn<(input: IActionInput) => Promise<unknown>>()
      .mockRejectedValueOnce(
        new ApiError(409, {
          code: 'ACTION_NOT_ALLOWED',
          message: 'This action is not possible in the account’s current state.',
        }),
      )
      .mockResolvedValueOnce({});
    const user = userEvent.setup();
    renderButton(run, {
      label: 'Block',
      description: <p>Blocked until unblocked.</p>,
      confirmLabel: 'Block',
      done: 'The account was blocked.',
    });

    await user.click(screen.getByRole('button', { name: 'Block' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Fraud report');
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    const summary = await within(dialog).findByRole('alert');
    expect(summary.textContent).toContain('The action was not taken');
    expect(summary.textContent).toContain(
      'This action is not possible in the account’s current state.',
    );
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(screen.queryByText('The account was blocked.')).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    await screen.findByText('The account was blocked.');
    expect(run.mock.calls.map(([input]) => input.requestKey)).toEqual([
      '00000000-0000-4000-8000-000000000001',
      '00000000-0000-4000-8000-000000000001',
    ]);
  });
});
