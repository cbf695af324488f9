import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/react-query.ts';
import { MemoryRouter, Route, Routes } from '../../../lib/router/router.tsx';
import AccountsPage from './accounts-page.tsx';

const fetchMock = vi.fn<typeof fetch>();

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

const ROW = {
  userId: '33333333-3333-4333-8333-333333333333',
  dealerpassUserId: 'DP-1',
  email: 'pat@dealer.example',
  firstName: 'Pat',
  lastName: 'Dealer',
  dealership: 'Pat Motors',
  accountStatus: 'active',
  accountStatusDetails: null,
  cardBrand: 'visa',
  cardLast4: '1111',
};

describe('AccountsPage (/admin): a search', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockImplementation(() => Promise.resolve(json(200, { data: [ROW] })));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('takes focus to its results, never to <body> (issue 25)', async () => {
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={['/admin']}>
          <Routes>
            <Route path="admin" element={<AccountsPage />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await user.type(screen.getByLabelText(/^Search accounts/), 'pat@dealer.example');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const title = await screen.findByRole('heading', { name: 'Results for “pat@dealer.example”' });
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(await screen.findByRole('link', { name: 'Pat Dealer' })).toBeTruthy();
  });
});
