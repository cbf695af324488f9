import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FINANCE_EXPORT_MESSAGES } from '@dealerpass/domain/admin/finance-export';
import type { TStaffRole } from '@dealerpass/domain/admin/roles';
import { StaffMemberProvider } from '../staff-member.tsx';
import FinancePage from './finance-page.tsx';

function renderPage(role: TStaffRole = 'billing') {
  return render(
    <StaffMemberProvider
      member={{ email: 'm@x.example', name: 'M', role, secondFactor: true, enrolled: true }}
    >
      <FinancePage />
    </StaffMemberProvider>,
  );
}

/** Finance (issue 29): a month or a range, checked with the server's own schema, then the file. */
describe('FinancePage', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('downloads a month’s CSV from the export route', async () => {
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function click(
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    renderPage();
    const user = userEvent.setup();
    const month = screen.getByLabelText(/^Month/);
    await user.clear(month);
    await user.type(month, '2026-03');
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(clicked).toEqual(['/api/admin/finance/movements.csv?month=2026-03']);
    expect((await screen.findByRole('status')).textContent).toBe(
      'The download of Mar 1, 2026 to Mar 31, 2026 has started.',
    );
  });

  it('refuses a range whose last date is before its first, and sends nothing', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderPage('admin');
    const user = userEvent.setup();
    await user.click(screen.getByLabelText(/^A range of dates/));
    await user.type(screen.getByLabelText(/^First date/), '2026-03-10');
    await user.type(screen.getByLabelText(/^Last date/), '2026-03-09');
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect((await screen.findByRole('alert')).textContent).toContain(FINANCE_EXPORT_MESSAGES.order);
    expect(click).not.toHaveBeenCalled();
  });

  it('tells support the export is not theirs', () => {
    renderPage('support');
    expect(screen.getByRole('alert').textContent).toBe(
      'The finance export is for billing and admin staff.',
    );
    expect(screen.queryByRole('button', { name: 'Download CSV' })).toBeNull();
  });
});
