import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '../../../lib/router/router.tsx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BANNER_DISMISSED_STORAGE_KEY } from '@dealerpass/domain/account/karid-banner';
import { CurrentUserProvider, type ICurrentUser } from '../current-user.tsx';
import { createQueryClient } from '../../../lib/react-query.ts';
import { KarIdBanner } from './karid-banner.tsx';

const NOW = new Date('2026-03-02T15:00:00Z');
const DAY = 86_400_000;

function userWithDeadline(days: number | null, karId = ''): ICurrentUser {
  return {
    dealerpassUserId: 'migrated.dealer',
    karId,
    email: 'tom@example.com',
    firstName: 'Tom',
    lastName: 'Whitaker',
    dealership: 'Whitaker Family Auto',
    accountStatus: 'active',
    programDate: days === null ? null : new Date(NOW.getTime() + days * DAY).toISOString(),
  };
}

function renderBanner(user: ICurrentUser, now = NOW) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <CurrentUserProvider user={user} refetch={async () => user}>
          <KarIdBanner now={() => now} />
        </CurrentUserProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** 000 §4, §9: the DealerPass ID reminder banner's levels, closing and re-showing. */
describe('KarIdBanner', () => {
  beforeEach(() => localStorage.clear());
  afterEach(cleanup);

  it.each([
    [30, 'reminder', false],
    [15, 'reminder', false],
    [14, 'alert', true],
    [3, 'alert', true],
    [2, 'urgent', false],
    [-1, 'urgent', false],
  ] as const)('%i days left: %s, closable %s', (days, level, closable) => {
    renderBanner(userWithDeadline(days));
    const banner = screen.getByTestId('karid-banner');
    expect(banner.getAttribute('data-level')).toBe(level);
    expect(screen.queryByRole('button', { name: 'Remind me later' }) !== null).toBe(closable);
    expect(screen.getByRole('link', { name: 'Create or link your DealerPass ID' })).toBeTruthy();
  });

  it('is not shown with a DealerPass ID or without a deadline', () => {
    renderBanner(userWithDeadline(5, 'f0e1'));
    expect(screen.queryByTestId('karid-banner')).toBeNull();
    cleanup();
    renderBanner(userWithDeadline(null));
    expect(screen.queryByTestId('karid-banner')).toBeNull();
  });

  it('closing stores the time; it stays closed for a day, then shows again', async () => {
    const user = userEvent.setup();
    renderBanner(userWithDeadline(10));
    await user.click(screen.getByRole('button', { name: 'Remind me later' }));
    expect(screen.queryByTestId('karid-banner')).toBeNull();
    expect(localStorage.getItem(BANNER_DISMISSED_STORAGE_KEY)).toBe(String(NOW.getTime()));
    cleanup();
    renderBanner(userWithDeadline(10), new Date(NOW.getTime() + DAY - 1000));
    expect(screen.queryByTestId('karid-banner')).toBeNull();
    cleanup();
    renderBanner(userWithDeadline(10), new Date(NOW.getTime() + DAY));
    expect(screen.getByTestId('karid-banner')).toBeTruthy();
  });

  it('an urgent banner shows even right after a dismissal', () => {
    localStorage.setItem(BANNER_DISMISSED_STORAGE_KEY, String(NOW.getTime() - 1000));
    renderBanner(userWithDeadline(2));
    expect(screen.getByTestId('karid-banner').getAttribute('data-level')).toBe('urgent');
  });

  describe('follows how this session signed in (GET /api/auth/session)', () => {
    afterEach(() => vi.unstubAllGlobals());
    const session = (loggedInViaKarId: boolean) =>
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string) => {
          expect(url).toBe('/api/auth/session');
          return new Response(JSON.stringify({ data: { context: 'web', loggedInViaKarId } }), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          });
        }),
      );

    it('shows for a legacy sign-in even when the account already has a DealerPass ID', async () => {
      session(false);
      renderBanner(userWithDeadline(5, 'f0e1'));
      expect(await screen.findByTestId('karid-banner')).toBeTruthy();
    });

    it('hides for a DealerPass ID sign-in', async () => {
      session(true);
      renderBanner(userWithDeadline(5));
      await waitFor(() => expect(screen.queryByTestId('karid-banner')).toBeNull());
    });
  });
});
