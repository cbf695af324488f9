import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/react-query.ts';
import { usePaymentHistory } from './get-payment-history.ts';

const fetchMock = vi.fn<typeof fetch>();
const payments = (year: number) =>
  new Response(JSON.stringify({ data: { payments: [{ year }] } }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

function Probe({ year }: { year: number }) {
  const { state, reload } = usePaymentHistory(year);
  return (
    <>
      <p data-testid="state">
        {state.status === 'ready' ? `ready ${JSON.stringify(state.payments)}` : state.status}
      </p>
      <button type="button" onClick={reload}>
        Try again
      </button>
    </>
  );
}

function renderProbe(year: number) {
  const client = createQueryClient();
  const view = render(
    <QueryClientProvider client={client}>
      <Probe year={year} />
    </QueryClientProvider>,
  );
  return {
    rerender: (next: number) =>
      view.rerender(
        <QueryClientProvider client={client}>
          <Probe year={next} />
        </QueryClientProvider>,
      ),
  };
}

const text = () => screen.getByTestId('state').textContent;

describe('usePaymentHistory', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('loads the year, shows a failure once (no retry), and Try again loads afresh', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('network down'));
    renderProbe(2026);
    expect(text()).toBe('loading');
    await vi.waitFor(() => expect(text()).toBe('error'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    let answer!: (response: Response) => void;
    fetchMock.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    act(() => screen.getByRole('button', { name: 'Try again' }).click());
    // Asking again shows the loading state, not the old failure.
    await vi.waitFor(() => expect(text()).toBe('loading'));
    await act(async () => answer(payments(2026)));
    await vi.waitFor(() => expect(text()).toBe('ready [{"year":2026}]'));
  });

  it("shows loading, not the previous year's payments, while another year loads", async () => {
    fetchMock.mockImplementation(async (url) =>
      payments(Number(new URL(String(url), 'http://x').searchParams.get('year'))),
    );
    const { rerender } = renderProbe(2026);
    await vi.waitFor(() => expect(text()).toBe('ready [{"year":2026}]'));
    rerender(2025);
    expect(text()).toBe('loading');
    await vi.waitFor(() => expect(text()).toBe('ready [{"year":2025}]'));
    expect(String(fetchMock.mock.calls[1]![0])).toContain('year=2025');
  });
});
