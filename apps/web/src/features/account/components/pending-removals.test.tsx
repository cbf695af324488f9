import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/react-query.ts';
import { PendingRemovals } from './pending-removals.tsx';

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** R10's pending removals on the Subscriptions page: Undo by keyboard keeps the focus on the page. */
describe('PendingRemovals', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('after Undo the message reporting it has the focus, not <body>', async () => {
    let undone = false;
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (init?.method === 'POST' && url.endsWith('/pendingRemovals/undo')) {
        undone = true;
        return json(200, { data: {} });
      }
      return json(200, {
        data: {
          codes: undone ? [] : ['MMR'],
          takeEffectOn: undone ? null : '2026-04-10',
          current: { codes: ['NADA', 'MMR'], autoExtras: [] },
        },
      });
    });
    render(
      <QueryClientProvider client={createQueryClient()}>
        <PendingRemovals />
      </QueryClientProvider>,
    );
    const undo = await screen.findByRole('button', { name: 'Undo: keep Manheim Market Report' });
    undo.focus();
    await userEvent.keyboard('{Enter}');
    const message = await screen.findByTestId('undo-message');
    expect(message.textContent).toBe('Manheim Market Report stays in your subscriptions.');
    await waitFor(() => expect(screen.queryByTestId('pending-removals')).toBeNull());
    expect(document.activeElement).toBe(message);
  });
});
