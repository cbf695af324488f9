import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/react-query.ts';
import { useCurrentUserLoader } from './current-user.tsx';

const fetchMock = vi.fn<typeof fetch>();
const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const user = (firstName: string) => answer(200, { data: { firstName } });

let outcome: Promise<unknown> | null = null;
function Probe() {
  const { state, refetch, retry } = useCurrentUserLoader();
  return (
    <>
      <p data-testid="state">
        {state.status === 'ready'
          ? `ready ${state.user.firstName}`
          : state.status === 'error'
            ? `error ${(state.error as { status?: number }).status ?? ''}`
            : 'loading'}
      </p>
      <button type="button" onClick={retry}>
        retry
      </button>
      <button
        type="button"
        onClick={() => {
          outcome = refetch().catch((error: { status?: number }) => `failed ${error.status}`);
        }}
      >
        refetch
      </button>
    </>
  );
}

const text = () => screen.getByTestId('state').textContent;
const start = () =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Probe />
    </QueryClientProvider>,
  );
const press = (name: string) => act(() => screen.getByRole('button', { name }).click());

describe('useCurrentUserLoader', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('a failed first load is an error; Try again loads afresh', async () => {
    fetchMock.mockResolvedValueOnce(answer(500, { code: 'X', message: 'x' }));
    start();
    await vi.waitFor(() => expect(text()).toBe('error 500'));
    fetchMock.mockResolvedValueOnce(user('Robin'));
    press('retry');
    await vi.waitFor(() => expect(text()).toBe('ready Robin'));
  });

  it('a failed reload keeps the user and rejects; a lost session (401) is an error', async () => {
    fetchMock.mockResolvedValueOnce(user('Robin'));
    start();
    await vi.waitFor(() => expect(text()).toBe('ready Robin'));
    fetchMock.mockResolvedValueOnce(answer(500, { code: 'X', message: 'x' }));
    press('refetch');
    expect(await outcome).toBe('failed 500');
    expect(text()).toBe('ready Robin');
    fetchMock.mockResolvedValueOnce(user('Sam'));
    press('refetch');
    await outcome;
    await vi.waitFor(() => expect(text()).toBe('ready Sam'));
    fetchMock.mockResolvedValueOnce(answer(401, { code: 'invalidToken', message: 'x' }));
    press('refetch');
    expect(await outcome).toBe('failed 401');
    await vi.waitFor(() => expect(text()).toBe('error 401'));
  });
});
