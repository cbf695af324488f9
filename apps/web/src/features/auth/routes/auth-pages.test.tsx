import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from '../../../lib/router/router.tsx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANALYTICS_EVENT, type AnalyticsDetail } from '../../../lib/events.ts';
import { loadPage } from '../../../lib/full-page-navigation.ts';
import AuthLoginPage from './auth-login-page.tsx';
import AuthLogoutPage from './auth-logout-page.tsx';
import LogoutPage from './logout-page.tsx';

vi.mock('../../../lib/full-page-navigation.ts', () => ({ loadPage: vi.fn() }));

function renderAt(entry: string | { pathname: string; search?: string; state?: unknown }) {
  return render(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route path="/authlogin" element={<AuthLoginPage />} />
        <Route path="/authlogout" element={<AuthLogoutPage />} />
        <Route path="/logout" element={<LogoutPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('/authlogin (001 §2, §4)', () => {
  afterEach(cleanup);

  it('has a Sign in button that is a full navigation to the server’s /login', () => {
    const { container } = renderAt('/authlogin');
    expect(container.querySelectorAll('h1')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByTestId('session-notice')).toBeNull();
    expect(screen.queryByTestId('blocked-notice')).toBeNull();
  });

  it.each([
    ['2', 'Your session has ended. Please sign in again.'],
    ['1', 'You were signed out because your account was signed in somewhere else.'],
    ['3', 'Signing in did not work. Please try again.'],
    ['4', 'This DealerPass ID is not connected to a DealerPass account.'],
  ])('explains err=%s', (err, text) => {
    renderAt(`/authlogin?err=${err}`);
    expect(screen.getByTestId('session-notice').textContent).toContain(text);
  });

  it('ignores an unknown err', () => {
    renderAt('/authlogin?err=toString');
    expect(screen.queryByTestId('session-notice')).toBeNull();
  });

  it('shows the blocked message with the support phone when navigation state says blocked', () => {
    renderAt({ pathname: '/authlogin', state: { blocked: true } });
    const notice = screen.getByTestId('blocked-notice');
    expect(notice.textContent).toContain('Your account has been blocked');
    expect(screen.getByRole('link', { name: '1-800-555-0199' }).getAttribute('href')).toBe(
      'tel:1-800-555-0199',
    );
  });
});

describe('/authlogout', () => {
  afterEach(cleanup);

  it('says the user has signed out and offers to sign in again', () => {
    renderAt('/authlogout');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('You have signed out.');
    expect(screen.getByRole('link', { name: 'Sign in again' }).getAttribute('href')).toBe('/login');
  });
});

describe('/logout (000 §7, §8)', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const events: AnalyticsDetail[] = [];
  const listener = (event: Event) => events.push((event as CustomEvent<AnalyticsDetail>).detail);

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    window.addEventListener(ANALYTICS_EVENT, listener);
  });
  afterEach(() => {
    cleanup();
    window.removeEventListener(ANALYTICS_EVENT, listener);
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    vi.mocked(loadPage).mockReset();
    events.length = 0;
  });

  it('ends the session, emits the logout event and loads the end-session URL', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ data: { redirectTo: '/oidc/session/end?x=1' } }), {
        status: 200,
      }),
    );
    renderAt('/logout');
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/oidc/session/end?x=1'));
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/auth/logout');
    expect(fetchMock.mock.calls[0]![1]?.method).toBe('POST');
    expect(events.filter((event) => event.name === 'logout')).toHaveLength(1);
  });

  it('when the logout fails, only logs it and shows /authlogout', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/log'
        ? new Response(null, { status: 204 })
        : new Response(JSON.stringify({ code: 'INTERNAL_SERVER_ERROR' }), { status: 500 }),
    );
    renderAt('/logout');
    expect(await screen.findByRole('heading', { name: 'You have signed out.' })).toBeTruthy();
    expect(loadPage).not.toHaveBeenCalled();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual([
      '/api/auth/logout',
      '/api/log',
    ]);
    expect(events.filter((event) => event.name === 'logout')).toHaveLength(1);
    warn.mockRestore();
  });
});
