import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/react-query.ts';
import { PendingRemovals } from './pending-removals.tsx';

const fetchMock = vi.fn<typeof fetch>();

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

describe('PendingRemovals: Undo', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('moves focus to the message that reports it, not to <body>, when its row goes (issue 25)', async () => {
    let undone = false;
    fetchMock.mockImplementation((input, init) => {
      const path = String(input);
      if (init?.method === 'POST' && path === '/api/users/subscriptions/pendingRemovals/undo') {
        undone = true;
        return Promise.resolve(json(200, { data: {} }));
      }
      return Promise.resolve(
        json(200, { data: { codes: undone ? [] : ['MMR'], takeEffectOn: '2026-12-28' } }),
      );
    });
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <PendingRemovals />
      </QueryClientProvider>,
    );
    await user.click(await screen.findByRole('button', { name: /keep/ }));
    const message = await screen.findByText(/stays in your subscriptions\./);
    await waitFor(() => expect(document.activeElement).toBe(message));
    expect(screen.queryByRole('button', { name: /keep/ })).toBeNull();
  });
});
