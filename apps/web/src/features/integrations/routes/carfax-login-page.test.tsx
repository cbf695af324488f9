import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from '../../../lib/router/router.tsx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeCarfaxSignIn, takeCarfaxSignIn } from '../carfax-sign-in-storage.ts';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { carfaxFailureFrom } from '../carfax-navigation-state.ts';
import { ErrorPanel } from '../components/error-panel.tsx';
import CarfaxLoginPage from './carfax-login-page.tsx';

const STATE = 'a'.repeat(64);
const CALLBACK = 'http://localhost/account/carfax/login';
const user = {
  accountStatus: 'active',
  subscriptionStatus: 'active',
  subscriptionStatusDescription: 'Active',
  accountStatusDetails: '',
  subscriptions: ['CF'],
  autoCheckId: '',
  autoCheckEnabled: false,
  autoCheckAutoPurchase: false,
  autoCheckPasswdSet: false,
};

/** The status page's failure panel, and the navigation state it came with. */
function StatusProbe() {
  const location = useLocation();
  const failure = carfaxFailureFrom(location.state);
  return (
    <>
      <p data-testid="arrived">{JSON.stringify(location.state)}</p>
      {failure ? (
        <ErrorPanel message={failure.message}>
          {failure.detail ? <p>{failure.detail}</p> : null}
        </ErrorPanel>
      ) : null}
    </>
  );
}

function renderAt(search: string) {
  return render(
    <ToastProvider>
      <MemoryRouter initialEntries={[`/account/carfax/login${search}`]}>
        <Routes>
          <Route
            path="/account/carfax/login"
            element={<CarfaxLoginPage user={user} refetch={async () => user} />}
          />
          <Route path="/account/status/carfax" element={<StatusProbe />} />
        </Routes>
      </MemoryRouter>
    </ToastProvider>,
  );
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the Carfax callback (000 §2, §4)', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn(async (url: string) => {
      if (url === '/api/v2/config/env')
        return json(200, {
          data: {
            carfaxClientId: 'c',
            carfaxLoginCallbackUrl: CALLBACK,
            carfaxLogoutCallbackUrl: 'x',
          },
        });
      return json(200, { data: { status: 'connected' } });
    });
    vi.stubGlobal('fetch', fetchMock);
    sessionStorage.clear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('refuses a state that is not the stored one, without asking for tokens', async () => {
    storeCarfaxSignIn({ state: STATE, returnTo: '/account/carFaxIntegrations' });
    renderAt(`?code=c1&state=${'b'.repeat(64)}`);
    await waitFor(() =>
      expect(screen.getByTestId('arrived').textContent).toContain('could not be verified'),
    );
    expect(fetchMock).not.toHaveBeenCalled();
    expect(takeCarfaxSignIn()).toBeNull(); // taken once
  });

  it('refuses a callback when nothing was stored', async () => {
    renderAt(`?code=c1&state=${STATE}`);
    await waitFor(() =>
      expect(screen.getByTestId('arrived').textContent).toContain('could not be verified'),
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("passes Carfax's own error on to the status page", async () => {
    storeCarfaxSignIn({ state: STATE, returnTo: '/account/status/carfax' });
    renderAt(`?error=access_denied&state=${STATE}`);
    await waitFor(() =>
      expect(screen.getByTestId('arrived').textContent).toContain(
        'User is not authorized to access this product',
      ),
    );
  });

  it('sends code, callback URL and state to the token endpoint, then goes to the status page', async () => {
    storeCarfaxSignIn({ state: STATE, returnTo: '/account/carFaxIntegrations' });
    renderAt(`?code=c%2F1&state=${STATE}`);
    await waitFor(() =>
      expect(screen.getByTestId('arrived').textContent).toContain('/account/carFaxIntegrations'),
    );
    expect(fetchMock.mock.calls.map((call) => call[0])).toEqual([
      '/api/v2/config/env',
      `/api/v2/oauth/carfax/tokens/c%2F1/${encodeURIComponent(CALLBACK)}?state=${STATE}`,
    ]);
  });

  it("shows 'Unable to fetch Carfax tokens!' in the error panel when the server fails", async () => {
    fetchMock.mockImplementation(async (url: string) =>
      url === '/api/v2/config/env'
        ? json(200, { data: { carfaxClientId: 'c', carfaxLoginCallbackUrl: CALLBACK } })
        : json(502, {
            statusCode: 502,
            code: 'CARFAX_TOKENS_FAILED',
            message: 'Unable to fetch Carfax tokens!',
            errors: [{ source: 'carfax', message: 'Tokens are missing' }],
          }),
    );
    storeCarfaxSignIn({ state: STATE, returnTo: '/account/status/carfax' });
    renderAt(`?code=c1&state=${STATE}`);
    // 000 §2: on to the status page, which shows the panel from navigation state.
    await waitFor(() =>
      expect(screen.getByTestId('arrived').textContent).toContain('carfaxFailure'),
    );
    const panel = await screen.findByRole('alert', { name: 'An error has occurred.' });
    expect(panel.textContent).toContain('An error has occurred.');
    expect(panel.textContent).toContain('Unable to fetch Carfax tokens!');
    expect(panel.textContent).toContain('Tokens are missing');
  });
});
