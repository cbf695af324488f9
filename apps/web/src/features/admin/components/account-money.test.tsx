import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorMessage } from '@dealerpass/domain/messages';
import type { TStaffAccountDetail } from '@dealerpass/domain/admin/console-views';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { createQueryClient } from '../../../lib/react-query.ts';
import { StaffMemberProvider } from '../staff-member.tsx';
import { PaymentsSection } from './account-money.tsx';

type TPayment = TStaffAccountDetail['payments'][number];

const PAYMENT: TPayment = {
  paymentId: '33333333-3333-4333-8333-333333333333',
  activationDate: '2026-03-10',
  amountCents: 13800,
  refundedCents: 0,
  refundableCents: 13800,
  chargedBackAt: null,
  status: 'succeeded',
  cardBrand: 'visa',
  cardLast4: '1111',
  gatewayTransactionId: 'txn-1',
  createdAt: '2026-03-10T15:00:00Z',
  receiptUrl: '/api/admin/accounts/u/payments/p/receipt',
};

function renderPayments(payment: TPayment) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <StaffMemberProvider
          member={{
            email: 'b@x.example',
            name: 'B',
            role: 'billing',
            secondFactor: true,
            enrolled: true,
          }}
        >
          <PaymentsSection userId="u" payments={[payment]} refunds={[]} onChanged={() => {}} />
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

describe('the console’s chargeback dialog (R15)', () => {
  afterEach(cleanup);

  it('on a payment refunded in full, tells staff to contest the dispute with the refund', async () => {
    renderPayments({ ...PAYMENT, refundedCents: 13800, refundableCents: 0 });
    await userEvent.click(screen.getByRole('button', { name: /record chargeback/i }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('note').textContent).toBe(
      errorMessage('CHARGEBACK_REFUNDED_IN_FULL'),
    );
  });

  it('after a partial refund, says the chargeback covers what was not refunded', async () => {
    renderPayments({ ...PAYMENT, refundedCents: 3800, refundableCents: 10000 });
    await userEvent.click(screen.getByRole('button', { name: /record chargeback/i }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('$100.00, what was not refunded ($38.00 was)');
    expect(within(dialog).queryByRole('note')).toBeNull();
  });
});
