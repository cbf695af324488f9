import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Navigate, Route, Routes, useLocation } from '../../lib/router/router.tsx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../components/ui/toast.tsx';
import { loadPage } from '../../lib/full-page-navigation.ts';
import { RETURN_URL_STORAGE_KEY } from '../../features/account/return-url.ts';
import { AccountRouteGuard } from '../../features/account/components/account-route-guard.tsx';
import KarIdConnectPage from '../../features/account/routes/karid-connect-page.tsx';
import AccountLayout from './account-layout.tsx';

vi.mock('../../lib/full-page-navigation.ts', () => ({ loadPage: vi.fn() }));

const fetchMock = vi.fn<typeof fetch>();

const USER = {
  dealerpassUserId: '100000001',
  karId: '',
  email: 'dana@dealer.example',
  firstName: 'Dana',
  lastName: 'Dealer',
  dealership: 'Dana Motors',
  accountStatus: 'active',
  subscriptionStatusDescription: 'Active',
  subscriptions: ['CF'],
};

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function Where() {
  const location = useLocation();
  return (
    <p data-testid="where">
      {location.pathname}
      {location.search} {JSON.stringify(location.state)}
    </p>
  );
}

/** The page without the toast regions (their empty live regions are alerts and statuses too). */
const page = () => within(screen.getByTestId('app'));

function Stub({ title }: { title: string }) {
  return <h1>{title} stub</h1>;
}

function renderAt(path: string) {
  return render(
    <ToastProvider>
      <MemoryRouter initialEntries={[path]}>
        <div data-testid="app">
          <Routes>
            <Route path="/account" element={<AccountLayout />}>
              <Route element={<AccountRouteGuard />}>
                <Route index element={<Navigate to="/account/profile" replace />} />
                <Route path="profile" element={<Stub title="Profile" />} />
                <Route path="billing" element={<Stub title="Billing" />} />
                <Route path="subscriptions" element={<Stub title="Subscriptions" />} />
                <Route path="subscriptions/cancel" element={<Stub title="Cancel" />} />
                <Route path="autoCheckIntegrations" element={<Stub title="AutoCheck" />} />
                <Route path="karid/connect" element={<KarIdConnectPage />} />
                <Route path="*" element={<Navigate to="/account/profile" replace />} />
              </Route>
            </Route>
            <Route path="*" element={<Where />} />
          </Routes>
        </div>
      </MemoryRouter>
    </ToastProvider>,
  );
}

describe('AccountLayout (000 §2, 001 §4)', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    sessionStorage.clear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    vi.mocked(loadPage).mockReset();
  });

  it('shows the user, the dealership and the navigation; /account goes to the profile', async () => {
    fetchMock.mockResolvedValue(json(200, { data: USER }));
    renderAt('/account');
    expect(page().getByRole('status').textContent).toContain('Loading your account');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Profile stub');
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/users/current');
    expect(screen.getByText('Dana Dealer')).toBeTruthy();
    expect(screen.getAllByText('Dana Motors').length).toBeGreaterThan(0);
    const nav = within(screen.getByRole('navigation', { name: 'Account' }));
    expect(
      nav.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Account Information', '/account/profile'],
      ['Billing Details', '/account/billing'],
      ['Subscriptions', '/account/subscriptions'],
      ['Carfax', '/account/status/carfax'],
      ['Logout', '/logout'],
    ]);
  });

  it('sends an unknown sub-path to the profile', async () => {
    fetchMock.mockResolvedValue(json(200, { data: { ...USER, karId: 'a-b-c' } }));
    renderAt('/account/anything');
    expect(await screen.findByRole('heading', { name: 'Profile stub' })).toBeTruthy();
  });

  it('guards by the domain rule: AutoCheck needs AC, the cancel page needs a started cancel', async () => {
    fetchMock.mockImplementation(async () => json(200, { data: USER }));
    renderAt('/account/autoCheckIntegrations');
    expect(await screen.findByRole('heading', { name: 'Profile stub' })).toBeTruthy();
    cleanup();
    renderAt('/account/subscriptions/cancel');
    expect(await screen.findByRole('heading', { name: 'Subscriptions stub' })).toBeTruthy();
    cleanup();
    fetchMock.mockImplementation(async () =>
      json(200, { data: { ...USER, subscriptions: ['AC'] } }),
    );
    renderAt('/account/autoCheckIntegrations');
    expect(await screen.findByRole('heading', { name: 'AutoCheck stub' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'AutoCheck' }).getAttribute('href')).toBe(
      '/account/autoCheckIntegrations',
    );
  });

  it('sends an inactive account to billing; its profile and subscriptions links alert instead', async () => {
    const inactive = { ...USER, accountStatus: 'inactive', subscriptions: ['CF', 'AC'] };
    fetchMock.mockResolvedValue(json(200, { data: inactive }));
    const user = userEvent.setup();
    renderAt('/account/subscriptions');
    expect(await screen.findByRole('heading', { name: 'Billing stub' })).toBeTruthy();
    const nav = within(screen.getByRole('navigation', { name: 'Account' }));
    expect(nav.queryByRole('link', { name: 'Carfax' })).toBeNull();
    expect(nav.queryByRole('link', { name: 'AutoCheck' })).toBeNull();
    await user.click(nav.getByRole('link', { name: 'Account Information' }));
    expect(screen.getByRole('heading', { name: 'Billing stub' })).toBeTruthy();
    expect(await screen.findByText(/Your account is no longer active/)).toBeTruthy();
  });

  it('sends a visitor without a session to sign in, coming back to the same page (401)', async () => {
    fetchMock.mockResolvedValue(json(401, { code: 'UNAUTHORIZED', message: 'x' }));
    renderAt('/account/billing?year=2025');
    await waitFor(() =>
      expect(loadPage).toHaveBeenCalledWith('/login?returnTo=%2Faccount%2Fbilling%3Fyear%3D2025'),
    );
    expect(page().getByRole('status').textContent).toContain('Taking you to sign in');
  });

  it('sends a blocked account to /authlogin with blocked in navigation state', async () => {
    fetchMock.mockResolvedValue(json(200, { data: { ...USER, accountStatus: 'blocked' } }));
    renderAt('/account');
    expect((await screen.findByTestId('where')).textContent).toBe('/authlogin {"blocked":true}');
  });

  it('hands a 403 session failure to the session handler: report, then the login page', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/log'
        ? new Response(null, { status: 204 })
        : json(403, 'invalidToken'),
    );
    renderAt('/account');
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/authlogin?err=2'));
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual([
      '/api/users/current',
      '/api/log',
    ]);
    expect(page().getByRole('status').textContent).toContain('Taking you to sign in');
    // The session handler's page only: the layout did not also send the visitor to /login.
    expect(vi.mocked(loadPage).mock.calls).toEqual([['/authlogin?err=2']]);
  });

  it('offers a retry when the user cannot be loaded', async () => {
    fetchMock.mockResolvedValueOnce(json(500, { code: 'INTERNAL_SERVER_ERROR' }));
    fetchMock.mockResolvedValueOnce(json(200, { data: USER }));
    const user = userEvent.setup();
    renderAt('/account');
    expect((await page().findByRole('alert')).textContent).toContain('could not be loaded');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Profile stub' })).toBeTruthy();
  });

  it('follows a return URL stored in session storage once, and clears it', async () => {
    sessionStorage.setItem(RETURN_URL_STORAGE_KEY, '/account/karid/connect');
    fetchMock.mockResolvedValue(json(200, { data: USER }));
    renderAt('/account');
    expect(await screen.findByRole('heading', { name: 'Your DealerPass ID' })).toBeTruthy();
    expect(sessionStorage.getItem(RETURN_URL_STORAGE_KEY)).toBeNull();
  });

  it('does not follow a stored return URL that leaves the site', async () => {
    sessionStorage.setItem(RETURN_URL_STORAGE_KEY, '//evil.example/account');
    fetchMock.mockResolvedValue(json(200, { data: USER }));
    renderAt('/account');
    expect(await screen.findByRole('heading', { name: 'Profile stub' })).toBeTruthy();
    expect(sessionStorage.getItem(RETURN_URL_STORAGE_KEY)).toBeNull();
  });
});

describe('/account/karid/connect (DECISIONS R6)', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('creates a DealerPass ID, refetches the user, confirms and shows the linked state', async () => {
    const linkedUser = { ...USER, karId: 'f0e1' };
    fetchMock
      .mockResolvedValueOnce(json(200, { data: USER }))
      .mockResolvedValueOnce(json(200, { data: linkedUser }))
      .mockResolvedValueOnce(json(200, { data: linkedUser }));
    const user = userEvent.setup();
    renderAt('/account/karid/connect');

    const email = (await screen.findByLabelText(/^Email/)) as HTMLInputElement;
    expect(email.value).toBe('dana@dealer.example');
    expect(screen.getByRole('radio', { name: 'Create a DealerPass ID' })).toHaveProperty(
      'checked',
      true,
    );
    await user.type(screen.getByLabelText(/^New password/), 'Str0ng!Pass');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Str0ng!Pass');
    await user.click(screen.getByRole('button', { name: 'Create DealerPass ID' }));

    const heading = await screen.findByRole('heading', { name: 'Your DealerPass ID is connected' });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByText('Changes have been saved.')).toBeTruthy();
    const [, post, refetch] = fetchMock.mock.calls;
    expect(String(post![0])).toBe('/api/users/current/karid');
    expect(post![1]?.method).toBe('POST');
    expect(JSON.parse(String(post![1]?.body))).toEqual({
      mode: 'create',
      email: 'dana@dealer.example',
      password: 'Str0ng!Pass',
      confirmPassword: 'Str0ng!Pass',
    });
    expect(String(refetch![0])).toBe('/api/users/current');
  });

  it('links an existing DealerPass ID and shows the server’s refusal in a focused alert', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { data: USER })).mockResolvedValueOnce(
      json(400, {
        statusCode: 400,
        code: 'INVALID_CREDENTIALS',
        message: 'Invalid credentials. Please try again.',
        errors: [],
      }),
    );
    const user = userEvent.setup();
    renderAt('/account/karid/connect');

    await user.click(await screen.findByRole('radio', { name: 'Link an existing DealerPass ID' }));
    expect(screen.queryByLabelText(/^Confirm/)).toBeNull();
    await user.type(screen.getByLabelText(/^Password/), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Link DealerPass ID' }));

    const alert = await page().findByRole('alert');
    expect(alert.textContent).toContain('Invalid credentials. Please try again.');
    expect(document.activeElement).toBe(alert);
    expect(JSON.parse(String(fetchMock.mock.calls[1]![1]?.body))).toEqual({
      mode: 'link',
      email: 'dana@dealer.example',
      password: 'whatever',
    });
  });

  it('tells an account that already has one, with a way back', async () => {
    fetchMock.mockResolvedValue(json(200, { data: { ...USER, karId: 'f0e1' } }));
    renderAt('/account/karid/connect');
    expect(
      await screen.findByRole('heading', { name: 'Your DealerPass ID is connected' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to your account' }).getAttribute('href')).toBe(
      '/account',
    );
    // No form: the one button is the account navigation's phone menu toggle (issue 14).
    expect(screen.getAllByRole('button').map((button) => button.className)).toEqual([
      'account-nav__toggle',
    ]);
  });
});
