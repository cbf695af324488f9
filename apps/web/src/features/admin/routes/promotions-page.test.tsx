import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { createQueryClient } from '../../../lib/react-query.ts';
import { StaffMemberProvider } from '../staff-member.tsx';
import PromotionsPage from './promotions-page.tsx';

const fetchMock = vi.fn<typeof fetch>();

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

const code = (fields: Record<string, unknown>) => ({
  kind: 'percent_off',
  value: 10,
  description: '',
  expiresAt: null,
  maxRedemptions: null,
  redemptionCount: 0,
  requiresCard: false,
  disabled: false,
  disabledAt: null,
  createdBy: 'seed',
  createdAt: '2026-01-01T00:00:00Z',
  recentRedemptions: [],
  status: 'active',
  ...fields,
});

describe('PromotionsPage (/admin/promotions)', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('shows the server’s status of each code, with Disable beside it (issue 25 item 15)', async () => {
    fetchMock.mockResolvedValue(
      json(200, {
        data: [
          code({ code: 'OPEN10' }),
          code({ code: 'EXPIRED', expiresAt: '2026-01-02T05:00:00Z', status: 'expired' }),
          code({ code: 'GONE', maxRedemptions: 1, redemptionCount: 1, status: 'used up' }),
          code({
            code: 'OFF',
            disabled: true,
            disabledAt: '2026-02-01T12:00:00Z',
            status: 'disabled',
          }),
        ],
      }),
    );
    render(
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
            <PromotionsPage />
          </StaffMemberProvider>
        </ToastProvider>
      </QueryClientProvider>,
    );
    const statusOf = async (id: string) => {
      const row = await screen.findByTestId(`promotion-${id}`);
      // The status is the row's second cell (after the code), and Disable sits in it.
      return within(row).getAllByRole('cell')[0]!;
    };
    expect((await statusOf('OPEN10')).textContent).toContain('Active');
    expect((await statusOf('EXPIRED')).textContent).toContain('Expired');
    expect((await statusOf('EXPIRED')).textContent).not.toContain('Active');
    expect((await statusOf('GONE')).textContent).toContain('Used up');
    expect((await statusOf('OFF')).textContent).toContain('Disabled');
    expect(within(await statusOf('OPEN10')).getByRole('button', { name: 'Disable' })).toBeTruthy();
    expect(within(await statusOf('OFF')).queryByRole('button', { name: 'Disable' })).toBeNull();
  });
});
