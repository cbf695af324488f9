import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CARFAX_API, CARFAX_TEXTS } from '@dealerpass/domain/integrations/carfax';
import { createQueryClient } from '../../../lib/react-query.ts';
import { CarfaxConnection } from './carfax-connection.tsx';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const CONFIG = {
  data: { carfaxClientId: 'c', carfaxLoginCallbackUrl: 'x', carfaxLogoutCallbackUrl: 'y' },
};
const connection = (expiresInMs: number) => ({
  data: {
    status: 'connected',
    accessTokenExpiresAt: new Date(Date.now() + expiresInMs).toISOString(),
    connectedAt: '2026-11-01T10:00:00.000Z',
  },
});
const problem = (status: number) =>
  json(status, { errors: [{ source: 'carfax', message: 'Carfax said no' }] });

type TAnswer = (url: string) => Response | Promise<Response>;
let answers: TAnswer[];
const fetchMock = vi.fn(async (url: string) => {
  const answer = answers.shift();
  if (!answer) throw new Error(`unexpected request ${url}`);
  return answer(url);
});
const calls = () => fetchMock.mock.calls.map((call) => call[0]);

function renderConnection() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <CarfaxConnection notice={null} />
    </QueryClientProvider>,
  );
}

describe('the Carfax connection (000 §4, §7)', () => {
  beforeEach(() => {
    answers = [];
    fetchMock.mockClear();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows the checking state, then the connection', async () => {
    answers = [() => json(200, CONFIG), () => json(200, connection(3_600_000))];
    renderConnection();
    expect(screen.getByRole('status').textContent).toContain(CARFAX_TEXTS.checking);
    expect(await screen.findByText(CARFAX_TEXTS.connected)).toBeTruthy();
    expect(screen.getByRole('button', { name: CARFAX_TEXTS.signOut })).toBeTruthy();
    expect(calls()).toEqual(['/api/v2/config/env', CARFAX_API.status]);
  });

  it('says "Unable to get configuration" when the configuration fails, without asking the status', async () => {
    answers = [() => json(500, {})];
    renderConnection();
    expect((await screen.findByRole('alert')).textContent).toContain('Unable to get configuration');
    expect(calls()).toEqual(['/api/v2/config/env']);
  });

  it('offers Try again when the status fails, and shows the checking state while it asks again', async () => {
    answers = [() => json(200, CONFIG), () => json(500, {})];
    renderConnection();
    expect(await screen.findByText(CARFAX_TEXTS.statusUnknown)).toBeTruthy();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    answers = [async () => gate.then(() => json(200, CONFIG)), () => json(404, {})];
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(CARFAX_TEXTS.checking)).toBeTruthy();
    release();
    expect(await screen.findByText(CARFAX_TEXTS.notConnected)).toBeTruthy();
    expect(screen.getByRole('button', { name: CARFAX_TEXTS.signIn })).toBeTruthy();
  });

  it('renews an expired access token at once', async () => {
    answers = [
      () => json(200, CONFIG),
      () => json(401, {}),
      () => json(200, connection(3_600_000)),
    ];
    renderConnection();
    expect(await screen.findByText(CARFAX_TEXTS.connected)).toBeTruthy();
    expect(calls()).toEqual(['/api/v2/config/env', CARFAX_API.status, CARFAX_API.refresh]);
  });

  it('shows the expired state when the renewal fails and the status is still expired', async () => {
    answers = [
      () => json(200, CONFIG),
      () => json(401, {}),
      () => problem(401),
      () => json(401, {}),
    ];
    renderConnection();
    expect(await screen.findByText(CARFAX_TEXTS.expired)).toBeTruthy();
  });

  it('renews the tokens a minute before the access token expires, while the page is open', async () => {
    answers = [
      () => json(200, CONFIG),
      () => json(200, connection(61_000)),
      () => json(200, connection(3_600_000)),
    ];
    renderConnection();
    expect(await screen.findByText(CARFAX_TEXTS.connected)).toBeTruthy();
    await waitFor(() => expect(calls()).toContain(CARFAX_API.refresh), { timeout: 3_000 });
    expect(screen.getByText(CARFAX_TEXTS.connected)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows Carfax's reason when a timed renewal fails, and reads the status again", async () => {
    answers = [
      () => json(200, CONFIG),
      () => json(200, connection(60_500)),
      () => problem(401),
      () => json(200, CONFIG),
      () => json(404, {}),
    ];
    renderConnection();
    expect(await screen.findByText(CARFAX_TEXTS.connected)).toBeTruthy();
    expect(await screen.findByText('Carfax said no', {}, { timeout: 3_000 })).toBeTruthy();
    expect(await screen.findByText(CARFAX_TEXTS.notConnected)).toBeTruthy();
  });
});
