import { StrictMode } from 'react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../components/ui/toast.tsx';
import { loadPage } from '../../lib/full-page-navigation.ts';
import { MemoryRouter, Route, Routes } from '../../lib/router/router.tsx';
import AdminLayout from './admin-layout.tsx';

vi.mock('../../lib/full-page-navigation.ts', () => ({ loadPage: vi.fn() }));

const fetchMock = vi.fn<typeof fetch>();

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function session(overrides: Record<string, unknown> = {}) {
  return {
    email: 'sam@dealerpass.example',
    name: 'Sam Support',
    role: 'support',
    secondFactor: true,
    enrolled: true,
    ...overrides,
  };
}

/** Answers by path, as the server would, however often StrictMode asks. */
function serve(routes: Record<string, () => Response>) {
  fetchMock.mockImplementation((input) => {
    const path = String(input).split('?')[0]!;
    const answer = routes[path];
    return Promise.resolve(answer ? answer() : json(200, { data: [] }));
  });
}

function renderAt(path: string) {
  // As main.tsx renders it: in StrictMode, where effects run twice.
  return render(
    <StrictMode>
      <ToastProvider>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="admin/*" element={<AdminLayout />} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </StrictMode>,
  );
}

describe('AdminLayout (/admin/*, decision 026)', () => {
  beforeAll(() => {
    // A demo deployment's page, as the server writes it: the sandbox gateway is on.
    const meta = document.createElement('meta');
    meta.name = 'dp-config';
    meta.content = JSON.stringify({ sandboxes: ['payments'], mailbox: true });
    document.head.append(meta);
  });
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    vi.mocked(loadPage).mockReset();
  });

  it('sends a visitor without a staff session to the staff sign-in, a full page load', async () => {
    fetchMock.mockResolvedValue(json(401, { code: 'UNAUTHORIZED', message: 'Sign in.' }));
    renderAt('/admin/promotions');
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/admin/login'));
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/admin/session');
    expect(screen.queryByRole('navigation', { name: 'Console' })).toBeNull();
  });

  it('asks for the code before anything else, then opens the console with the member’s role', async () => {
    let verified = false;
    serve({
      '/api/admin/session': () => json(200, { data: session({ secondFactor: verified }) }),
      '/api/admin/session/verify': () => {
        verified = true;
        return json(200, { data: session() });
      },
    });
    const user = userEvent.setup();
    renderAt('/admin');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Enter your sign-in code' }),
    ).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Console' })).toBeNull();
    const code = screen.getByLabelText(/^6-digit code/);
    // Issue 25: the password step ends on this page with focus on what comes next, its field.
    await waitFor(() => expect(document.activeElement).toBe(code));
    // R8: the console says it is a sandbox, as the dealer's pages do.
    expect(screen.getByTestId('sandbox-ribbon').textContent).toContain('Sandbox');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    await user.type(code, '123 456');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const nav = await screen.findByRole('navigation', { name: 'Console' });
    const verify = fetchMock.mock.calls.filter(
      ([url]) => String(url) === '/api/admin/session/verify',
    );
    expect(verify).toHaveLength(1);
    expect(JSON.parse(String(verify[0]![1]?.body))).toEqual({ code: '123456' });
    expect(screen.getByTestId('admin-member-name').textContent).toBe('Sam Support');
    expect(screen.getByTestId('admin-member-role').textContent).toBe('Support');
    // Support has no Staff section (R12).
    expect(nav.textContent).not.toContain('Staff');
    expect(await screen.findByRole('heading', { level: 1, name: 'Accounts' })).toBeTruthy();
    // The code page is gone with the field that had focus: the console's content has it.
    expect(document.activeElement).toBe(screen.getByRole('main'));
    expect(screen.getByTestId('sandbox-ribbon')).toBeTruthy();
  });

  it('offers a member without an authenticator a secret in groups of four', async () => {
    serve({
      '/api/admin/session': () =>
        json(200, { data: session({ secondFactor: false, enrolled: false }) }),
      '/api/admin/session/enrolment': () =>
        json(200, {
          data: {
            secret: 'JBSWY3DPEHPK3PXPJBSW',
            otpauthUri: 'otpauth://totp/DealerPass:sam?secret=JBSWY3DPEHPK3PXPJBSW',
          },
        }),
    });
    renderAt('/admin');

    expect((await screen.findByTestId('totp-secret')).textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW');
    // One secret per visit, though StrictMode runs the effect twice.
    expect(
      fetchMock.mock.calls.filter(([url]) => String(url) === '/api/admin/session/enrolment'),
    ).toHaveLength(1);
    expect(screen.getByLabelText(/^6-digit code/)).toBeTruthy();
    expect(await screen.findByRole('img', { name: 'QR code of the setup link' })).toBeTruthy();
  });

  it('shows the signed-out page without asking for a session', async () => {
    renderAt('/admin/signed-out');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'You are signed out' }),
    ).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(loadPage).not.toHaveBeenCalled();
  });
});
