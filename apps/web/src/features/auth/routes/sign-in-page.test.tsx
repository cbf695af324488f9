import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from '../../../lib/router/router.tsx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPage } from '../../../lib/full-page-navigation.ts';
import SignInPage from './sign-in-page.tsx';

vi.mock('../../../lib/full-page-navigation.ts', () => ({ loadPage: vi.fn() }));

const UID = 'abcDEF123456';
const fetchMock = vi.fn<typeof fetch>();

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function details(loginHint: string | null = null) {
  return json(200, { data: { uid: UID, prompt: 'login', loginHint } });
}

function renderPage() {
  return render(
    <MemoryRouter initialEntries={[`/oidc/interaction/${UID}`]}>
      <Routes>
        <Route path="/oidc/interaction/:uid" element={<SignInPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

function sentBody(call = 1): unknown {
  return JSON.parse(String(fetchMock.mock.calls[call]![1]?.body));
}

describe('SignInPage (/oidc/interaction/:uid)', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    vi.mocked(loadPage).mockReset();
  });

  it('loads the interaction, pre-fills the e-mail from the login hint, and signs in with a full navigation', async () => {
    fetchMock.mockResolvedValueOnce(details('dana@dealer.example'));
    fetchMock.mockResolvedValueOnce(json(200, { data: { redirectTo: '/oidc/auth/xyz' } }));
    const user = userEvent.setup();
    renderPage();

    expect(screen.getByRole('status').textContent).toContain('Loading');
    const email = await screen.findByLabelText(/^Email/);
    expect((email as HTMLInputElement).value).toBe('dana@dealer.example');
    expect(String(fetchMock.mock.calls[0]![0])).toBe(`/oidc/interaction/${UID}/details`);
    expect(screen.getByRole('radio', { name: 'DealerPass ID' })).toHaveProperty('checked', true);
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(
      '/identity/forgot-password',
    );

    await user.type(screen.getByLabelText(/^Password/), 'S3cret!pass');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/oidc/auth/xyz'));
    expect(String(fetchMock.mock.calls[1]![0])).toBe(`/oidc/interaction/${UID}/login`);
    expect(fetchMock.mock.calls[1]![1]?.method).toBe('POST');
    expect(sentBody()).toEqual({
      method: 'email',
      email: 'dana@dealer.example',
      password: 'S3cret!pass',
    });
  });

  it('signs a migrated account in with its legacy username', async () => {
    fetchMock.mockResolvedValueOnce(details());
    fetchMock.mockResolvedValueOnce(json(200, { data: { redirectTo: '/oidc/auth/1' } }));
    const user = userEvent.setup();
    renderPage();

    await user.click(await screen.findByRole('radio', { name: 'Legacy username' }));
    expect(screen.queryByLabelText(/^Email/)).toBeNull();
    await user.type(screen.getByLabelText(/^Username/), 'olddealer');
    await user.type(screen.getByLabelText(/^Password/), 'legacy-pass');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/oidc/auth/1'));
    expect(sentBody()).toEqual({
      method: 'legacy',
      username: 'olddealer',
      password: 'legacy-pass',
    });
  });

  it.each([
    [400, 'INVALID_CREDENTIALS', 'Invalid credentials. Please try again.'],
    [429, 'RATE_LIMITED', 'Too many failed sign-ins for this account.'],
  ])(
    'shows the server message of a %i in an alert above the form, focused, keeping the e-mail',
    async (status, code, message) => {
      fetchMock.mockResolvedValueOnce(details());
      fetchMock.mockResolvedValueOnce(
        json(status, { statusCode: status, code, message, errors: [] }),
      );
      const user = userEvent.setup();
      renderPage();

      await user.type(await screen.findByLabelText(/^Email/), 'dana@dealer.example');
      await user.type(screen.getByLabelText(/^Password/), 'wrong-Pass1!');
      await user.click(screen.getByRole('button', { name: 'Sign in' }));

      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toContain(message);
      expect(document.activeElement).toBe(alert);
      expect(alert.compareDocumentPosition(screen.getByLabelText(/^Email/))).toBe(
        Node.DOCUMENT_POSITION_FOLLOWING,
      );
      expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe(
        'dana@dealer.example',
      );
      expect((screen.getByLabelText(/^Password/) as HTMLInputElement).value).toBe('');
      expect(loadPage).not.toHaveBeenCalled();
    },
  );

  it('lists the missing fields in a focused summary that links to them', async () => {
    fetchMock.mockResolvedValueOnce(details());
    const user = userEvent.setup();
    renderPage();

    await user.click(await screen.findByRole('button', { name: 'Sign in' }));

    const alert = await screen.findByRole('alert');
    expect(document.activeElement).toBe(alert);
    const links = screen.getAllByRole('link', { name: /is required/ });
    expect(links.map((link) => link.textContent)).toEqual([
      'Email is required.',
      'Password is required.',
    ]);
    await user.click(links[1]!);
    expect(document.activeElement).toBe(screen.getByLabelText(/^Password/));
    expect(screen.getByLabelText(/^Password/).getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('offers a fresh start when the interaction is unknown or expired', async () => {
    fetchMock.mockResolvedValueOnce(
      json(404, { statusCode: 404, code: 'NOT_FOUND', message: 'expired', errors: [] }),
    );
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('expired');
    expect(screen.getByRole('link', { name: 'Start signing in again' }).getAttribute('href')).toBe(
      '/login',
    );
  });

  it('offers a retry when the details cannot be loaded', async () => {
    fetchMock.mockResolvedValueOnce(new Response('<!doctype html>', { status: 200 }));
    fetchMock.mockResolvedValueOnce(details('x@dealer.example'));
    const user = userEvent.setup();
    renderPage();

    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(((await screen.findByLabelText(/^Email/)) as HTMLInputElement).value).toBe(
      'x@dealer.example',
    );
  });

  it('switches to the fresh-start message when the interaction ends while the form is open', async () => {
    fetchMock.mockResolvedValueOnce(details());
    fetchMock.mockResolvedValueOnce(json(404, { code: 'NOT_FOUND', message: 'gone' }));
    const user = userEvent.setup();
    renderPage();

    await user.type(await screen.findByLabelText(/^Email/), 'dana@dealer.example');
    await user.type(screen.getByLabelText(/^Password/), 'x');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('link', { name: 'Start signing in again' })).toBeTruthy();
  });
  it('shows the staff variant for the console’s client and posts to its own login (decision 026)', async () => {
    fetchMock.mockResolvedValueOnce(
      json(200, { data: { uid: UID, prompt: 'login', client: 'staff', loginHint: null } }),
    );
    fetchMock.mockResolvedValueOnce(json(200, { data: { redirectTo: '/oidc/auth/staff' } }));
    const user = userEvent.setup();
    renderPage();

    expect(
      await screen.findByRole('heading', { level: 1, name: 'DealerPass staff sign-in' }),
    ).toBeTruthy();
    const email = await screen.findByLabelText(/^Email/);
    // Staff have an e-mail and a password only: no legacy username, no self-service reset.
    expect(screen.queryByRole('radio', { name: 'Legacy username' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Forgot password?' })).toBeNull();

    await user.type(email, 'avery@dealerpass.example');
    await user.type(screen.getByLabelText(/^Password/), 'Staff!pass1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/oidc/auth/staff'));
    expect(String(fetchMock.mock.calls[1]![0])).toBe(`/oidc/interaction/${UID}/staff-login`);
    expect(sentBody()).toEqual({ email: 'avery@dealerpass.example', password: 'Staff!pass1' });
  });

  it('offers a restart at the console’s sign-in when a staff interaction has expired', async () => {
    fetchMock.mockResolvedValueOnce(
      json(200, { data: { uid: UID, prompt: 'login', client: 'staff', loginHint: null } }),
    );
    fetchMock.mockResolvedValueOnce(json(404, { code: 'NOT_FOUND', message: 'Expired.' }));
    const user = userEvent.setup();
    renderPage();

    await user.type(await screen.findByLabelText(/^Email/), 'avery@dealerpass.example');
    await user.type(screen.getByLabelText(/^Password/), 'Staff!pass1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    const restart = await screen.findByRole('link', { name: 'Start signing in again' });
    expect(restart.getAttribute('href')).toBe('/admin/login');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('DealerPass staff sign-in');
  });
});
