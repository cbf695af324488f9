import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes } from '../../lib/router/router.tsx';
import { PublicLayout } from './public-layout.tsx';

function renderLayout() {
  return render(
    <MemoryRouter initialEntries={['/home']}>
      <Routes>
        <Route element={<PublicLayout />}>
          <Route path="/home" element={<p>Home page</p>} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

/** The public layout's header and cookie banner, for keyboard and screen-reader users. */
describe('PublicLayout', () => {
  beforeEach(() => {
    localStorage.clear();
    // jsdom lays nothing out: the banner's reserved space has nothing to observe.
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('the logo’s accessible name starts with its visible text (WCAG 2.5.3, axe label-content-name-mismatch)', () => {
    renderLayout();
    const logo = screen.getByRole('link', { name: 'DealerPass home' });
    // No aria-label overriding the text, and no letter of the mark in the link's text.
    expect(logo.getAttribute('aria-label')).toBeNull();
    expect(logo.textContent).toBe('DealerPass home');
    expect(logo.getAttribute('href')).toBe('/home');
  });

  it('the cookie banner comes right after the skip link in the focus order', async () => {
    renderLayout();
    await userEvent.tab();
    expect(document.activeElement?.textContent).toBe('Skip to content');
    await userEvent.tab();
    const banner = screen.getByRole('region', { name: 'Cookies on DealerPass' });
    expect(banner.contains(document.activeElement)).toBe(true);
  });

  it('choosing a cookie option moves the focus to the page, not to <body>, and says it was saved', async () => {
    renderLayout();
    const banner = screen.getByRole('region', { name: 'Cookies on DealerPass' });
    await userEvent.click(within(banner).getByRole('button', { name: 'Essential only' }));
    expect(screen.queryByRole('region', { name: 'Cookies on DealerPass' })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('main')));
    expect(screen.getByTestId('cookie-status').textContent).toBe(
      'Your cookie choices have been saved.',
    );
  });
});
