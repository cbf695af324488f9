import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/router/router.tsx';
import { CATALOGUE, CATALOGUE_GROUPS, FOOTNOTES } from '@dealerpass/domain/catalogue';
import HomePage from './home-page.tsx';

function renderHome() {
  return render(
    <MemoryRouter initialEntries={['/home']}>
      <HomePage />
    </MemoryRouter>,
  );
}

function rowOf(group: string, name: string): HTMLElement {
  const table = screen.getByRole('table', { name: `${group}: monthly prices` });
  const header = within(table).getByRole('rowheader', {
    name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
  });
  return header.closest('tr') as HTMLElement;
}

describe('HomePage', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('has one h1, then h2s, and sets the title', () => {
    vi.setSystemTime(new Date('2026-11-21T12:00:00Z'));
    const { container } = renderHome();
    const headings = [...container.querySelectorAll('h1, h2, h3, h4, h5, h6')];
    expect(container.querySelectorAll('h1')).toHaveLength(1);
    expect(headings[0]?.tagName).toBe('H1');
    expect(headings[1]?.tagName).toBe('H2');
    // No level is skipped on the way down.
    for (let i = 1; i < headings.length; i += 1) {
      const step = Number(headings[i]!.tagName[1]) - Number(headings[i - 1]!.tagName[1]);
      expect(step).toBeLessThanOrEqual(1);
    }
    expect(document.title).toContain('DealerPass');
  });

  it('lists every catalogue item in its group with the current prices', () => {
    vi.setSystemTime(new Date('2026-11-21T12:00:00Z'));
    renderHome();
    for (const group of CATALOGUE_GROUPS) {
      expect(screen.getByRole('heading', { level: 3, name: group })).toBeTruthy();
    }
    for (const item of CATALOGUE) {
      expect(rowOf(item.group, item.name)).toBeTruthy();
    }
    expect(rowOf('Pricing Guides', 'J.D. Power').textContent).toContain('$70.00');
    expect(rowOf('Market Reports', 'Manheim Market Report').textContent).toContain('$65.00');
    expect(rowOf('Market Reports', 'Retail Market Report').textContent).toContain('$35.00');
    expect(rowOf('Extras', 'CARFAX Integration').textContent).toContain('$55.00');
    expect(rowOf('Pricing Guides', 'Kelley Blue Book').textContent).toContain('$35.00');
    expect(rowOf('Pricing Guides', 'Galves').textContent).toContain('Not available');
  });

  it('uses the prices in force at the time, from the domain', () => {
    vi.setSystemTime(new Date('2024-06-01T12:00:00Z'));
    renderHome();
    expect(rowOf('Pricing Guides', 'J.D. Power').textContent).toContain('$65.00');
    expect(rowOf('Market Reports', 'Manheim Market Report').textContent).toContain('$80.00');
    // Before 2 September 2025 there is no platform fee.
    expect(screen.queryByText(/platform fee is added/)).toBeNull();
  });

  it('explains the pricing rules with an example quote', () => {
    vi.setSystemTime(new Date('2026-11-21T12:00:00Z'));
    renderHome();
    expect(screen.getByText(/monthly platform fee is added/).textContent).toContain('$3.00');
    const example = screen.getByRole('table', { name: /^Example/ });
    // KBB 65 + MMR 65, both integrations free, plus the 3-dollar platform fee.
    expect(within(example).getByRole('row', { name: /^Total/ }).textContent).toContain('$133.00');
    expect(screen.getByText(/10-day trial/, { selector: 'strong' })).toBeTruthy();
  });

  it('shows both footnotes and links to sign-up and contact', () => {
    vi.setSystemTime(new Date('2026-11-21T12:00:00Z'));
    renderHome();
    expect(screen.getByText(FOOTNOTES.blackBook.text, { exact: false })).toBeTruthy();
    expect(screen.getByText(FOOTNOTES.integrations.text, { exact: false })).toBeTruthy();
    const signUp = screen.getAllByRole('link', { name: 'Sign up' });
    const contact = screen.getAllByRole('link', { name: 'Contact us' });
    expect(signUp.every((link) => link.getAttribute('href') === '/signup')).toBe(true);
    expect(contact.every((link) => link.getAttribute('href') === '/contact')).toBe(true);
  });
});
