import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter } from '../../../lib/router/router.tsx';
import { CurrentUserProvider, type ICurrentUser } from '../current-user.tsx';
import CancelConfirmationPage from './cancel-confirmation-page.tsx';

function renderPage(overrides: Partial<ICurrentUser>) {
  const account: ICurrentUser = {
    dealerpassUserId: 'dealer@example.com',
    karId: null,
    email: 'dealer@example.com',
    firstName: 'Casey',
    lastName: 'Dealer',
    dealership: 'Casey Motors',
    accountStatus: 'pending cancel',
    subscriptionStatus: 'pending cancel',
    nextBillDate: '2026-04-10',
    ...overrides,
  };
  return render(
    <MemoryRouter initialEntries={['/account/subscriptions/cancel/confirmation']}>
      <CurrentUserProvider user={account} refetch={async () => account}>
        <CancelConfirmationPage />
      </CurrentUserProvider>
    </MemoryRouter>,
  );
}

describe('the cancellation confirmation says when the account becomes inactive (decision 058)', () => {
  afterEach(cleanup);

  it('at the next bill date when no paid year lies ahead', () => {
    renderPage({ cancellationTakesEffect: '2026-04-10' });
    expect(screen.getByText(/It will become inactive after Apr 10, 2026\./)).toBeTruthy();
    expect(screen.getByText(/will not incur any further charges/)).toBeTruthy();
  });

  it('at a paid year’s end, with the months before it still billed by card', () => {
    renderPage({ cancellationTakesEffect: '2027-05-10' });
    const notice = screen.getByText(/It will become inactive after May 10, 2027\./);
    expect(notice.textContent).toContain(
      'Monthly card billing goes on until your year paid by check begins',
    );
    expect(screen.queryByText(/Apr 10, 2026/)).toBeNull();
  });
});
