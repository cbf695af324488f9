import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from '../../../lib/router/router.tsx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ForgotPasswordPage from './forgot-password-page.tsx';
import ResetPasswordPage from './reset-password-page.tsx';
import SetPasswordPage from './set-password-page.tsx';

// The captcha widget is tested on its own; here it is a button that yields a token.
vi.mock('../../../components/ui/captcha/captcha.tsx', () => ({
  Captcha: ({
    onChange,
    resetSignal,
  }: {
    onChange: (t: string | null) => void;
    resetSignal: number;
  }) => (
    <button type="button" data-reset={resetSignal} onClick={() => onChange('captcha-token')}>
      Solve captcha
    </button>
  ),
}));

// jsdom cannot load pages; the set-password page's sign-in is recorded instead.
const loadPage = vi.hoisted(() => vi.fn<(url: string) => void>());
vi.mock('../../../lib/full-page-navigation.ts', () => ({ loadPage, replacePage: vi.fn() }));

const TOKEN = 'A'.repeat(43);
const fetchMock = vi.fn<typeof fetch>();

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/identity/set-password" element={<SetPasswordPage />} />
        <Route path="/identity/reset-password" element={<ResetPasswordPage />} />
        <Route path="/identity/forgot-password" element={<ForgotPasswordPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  loadPage.mockReset();
});

describe('/identity/set-password and /identity/reset-password (DECISIONS R6, 001 §8)', () => {
  it('sets the password and offers to sign in with the e-mail as hint', async () => {
    fetchMock.mockResolvedValue(json(200, { data: { email: 'dana+1@dealer.example' } }));
    const user = userEvent.setup();
    renderAt(`/identity/set-password?token=${TOKEN}`);

    const password = screen.getByLabelText(/^New password/);
    expect(password.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText(/At least 8 characters and no spaces/)).toBeTruthy();
    await user.type(password, 'Str0ng!Pass');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Str0ng!Pass');
    await user.click(screen.getByRole('button', { name: 'Set password' }));

    const done = await screen.findByRole('heading', { name: 'Your password is set' });
    expect(document.activeElement).toBe(done);
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      '/login?hint=dana%2B1%40dealer.example',
    );
    // R6 (issue 14.17): and signs in at once, no second typing of the password.
    expect(loadPage).toHaveBeenCalledWith('/login?hint=dana%2B1%40dealer.example');
    expect(screen.getByRole('status').textContent).toBe('Signing you in…');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe('/api/identity/password/set');
    expect(JSON.parse(String(init?.body))).toEqual({
      token: TOKEN,
      password: 'Str0ng!Pass',
      confirmPassword: 'Str0ng!Pass',
    });
  });

  it('resets through the reset endpoint', async () => {
    fetchMock.mockResolvedValue(json(200, { data: { email: 'dana@dealer.example' } }));
    const user = userEvent.setup();
    renderAt(`/identity/reset-password?token=${TOKEN}`);
    await user.type(screen.getByLabelText(/^New password/), 'Str0ng!Pass');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Str0ng!Pass');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(
      await screen.findByRole('heading', { name: 'Your password has been reset' }),
    ).toBeTruthy();
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/identity/password/reset');
    // A reset does not sign in: the user types the new password at the sign-in page.
    expect(loadPage).not.toHaveBeenCalled();
  });

  it('shows the rule’s messages in a focused summary before sending anything', async () => {
    const user = userEvent.setup();
    renderAt(`/identity/set-password?token=${TOKEN}`);
    await user.type(screen.getByLabelText(/^New password/), 'weak');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'other');
    await user.click(screen.getByRole('button', { name: 'Set password' }));

    const alert = await screen.findByRole('alert');
    expect(document.activeElement).toBe(alert);
    expect(
      within(alert)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'Password does not meet requirements.',
      'Confirm password does not meet requirements',
    ]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it.each([
    ['TEMPORARY_PASSWORD_EXPIRED', 'Temporary password has expired.  Please reset again.'],
    [
      'RESET_INVALID',
      'Reset attempt was unsuccessful. Please use the most recent link or contact Customer Support.',
    ],
  ])(
    'a dead link (%s) gets its message verbatim and a way to ask for a new one',
    async (code, message) => {
      fetchMock.mockResolvedValue(json(400, { statusCode: 400, code, message, errors: [] }));
      const user = userEvent.setup();
      renderAt(`/identity/reset-password?token=${TOKEN}`);
      await user.type(screen.getByLabelText(/^New password/), 'Str0ng!Pass');
      await user.type(screen.getByLabelText(/^Confirm new password/), 'Str0ng!Pass');
      await user.click(screen.getByRole('button', { name: 'Reset password' }));

      const alert = await screen.findByRole('alert');
      // Verbatim, the catalogue's double space included.
      expect(alert.querySelector('li')?.textContent).toBe(message);
      expect(
        within(alert).getByRole('link', { name: 'Request a new link' }).getAttribute('href'),
      ).toBe('/identity/forgot-password');
    },
  );

  it('a link without a usable token says so and offers a new one', () => {
    renderAt('/identity/set-password');
    expect(screen.getByRole('alert').textContent).toContain(
      'Reset attempt was unsuccessful. Please use the most recent link or contact Customer Support.',
    );
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('/identity/forgot-password (001 §8)', () => {
  it('sends the e-mail and captcha, then confirms', async () => {
    fetchMock.mockResolvedValue(json(200, { data: { sent: true } }));
    const user = userEvent.setup();
    renderAt('/identity/forgot-password');
    await user.type(screen.getByLabelText(/^Email/), 'dana@dealer.example');
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));

    const heading = await screen.findByRole('heading', { name: 'Check your email' });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByText('dana@dealer.example')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe('/api/identity/password/forgot');
    expect(JSON.parse(String(init?.body))).toEqual({
      email: 'dana@dealer.example',
      recaptcha: 'captcha-token',
    });
  });

  it('a 404 says the username was not found and asks for a new captcha', async () => {
    fetchMock.mockResolvedValue(
      json(404, { statusCode: 404, code: 'USERNAME_NOT_FOUND', message: 'x', errors: [] }),
    );
    const user = userEvent.setup();
    renderAt('/identity/forgot-password');
    await user.type(screen.getByLabelText(/^Email/), 'nobody@dealer.example');
    const captcha = screen.getByRole('button', { name: 'Solve captcha' });
    await user.click(captcha);
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Username was not found. Please try again.')).toBeTruthy();
    expect(document.activeElement).toBe(alert);
    expect(screen.getByRole('button', { name: 'Solve captcha' }).getAttribute('data-reset')).toBe(
      '1',
    );
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe(
      'nobody@dealer.example',
    );
  });

  it('asks for the captcha before sending', async () => {
    const user = userEvent.setup();
    renderAt('/identity/forgot-password');
    await user.type(screen.getByLabelText(/^Email/), 'dana@dealer.example');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'reCAPTCHA required to prove you’re not a robot.',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
