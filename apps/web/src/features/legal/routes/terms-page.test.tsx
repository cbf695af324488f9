import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/router/router.tsx';
import TermsPage from './terms-page.tsx';

function renderTerms() {
  return render(
    <MemoryRouter initialEntries={['/terms']}>
      <TermsPage />
    </MemoryRouter>,
  );
}

describe('TermsPage', () => {
  afterEach(cleanup);

  it('has one h1 and sets the title', () => {
    const { container } = renderTerms();
    expect(container.querySelectorAll('h1')).toHaveLength(1);
    expect(container.querySelector('h1, h2, h3')?.tagName).toBe('H1');
    expect(document.title).toBe('Terms of Use · DealerPass');
  });

  it('has focusable anchors for terms, refund, privacy and your rights, in that order', () => {
    const { container } = renderTerms();
    const ids = ['terms', 'refund', 'privacy', 'your-rights'];
    const targets = ids.map((id) => container.querySelector<HTMLElement>(`#${id}`));
    for (const target of targets) {
      expect(target).not.toBeNull();
      expect(target!.tabIndex).toBe(-1);
    }
    const privacyPart = targets[2]!.closest('section')!;
    expect(privacyPart.contains(targets[3]!)).toBe(true);
    // Privacy is the last part of the page.
    const parts = container.querySelectorAll('.terms-part');
    expect(parts[parts.length - 1]).toBe(privacyPart);
  });

  it('lists every section in the contents, each link pointing at an existing heading', () => {
    const { container } = renderTerms();
    const nav = screen.getByRole('navigation', { name: 'On this page' });
    const links = within(nav).getAllByRole('link');
    expect(links.length).toBeGreaterThan(10);
    for (const link of links) {
      const href = link.getAttribute('href')!;
      expect(href.startsWith('#')).toBe(true);
      const target = container.querySelector(href);
      expect(target?.tagName).toMatch(/^H[23]$/);
      expect(target?.textContent).toBe(link.textContent);
    }
  });

  it('covers the points of the terms summary', () => {
    const { container } = renderTerms();
    const text = container.textContent!.replace(/\s+/g, ' ');
    for (const needle of [
      '18 years old',
      'human being',
      'keep your sign-in details to yourself',
      'renews automatically',
      'no refunds or credits for partial months',
      '10-day trial',
      '45 business days',
      'only through the web site',
      'reactivation fee of $25',
      '30 days before',
      '300 MB',
      'Technical support is available to account holders with a paid',
      '10% discount',
      'by check',
    ]) {
      expect(text).toContain(needle);
    }
    for (const provider of [
      'Black Book',
      'J.D. Power (NADA)',
      'Kelley Blue Book',
      'Galves',
      'Manheim',
      'AuctionNet',
      'Carfax',
      'AutoCheck',
    ]) {
      expect(screen.getByText(provider, { selector: 'dt' })).toBeTruthy();
    }
  });

  it('tells people how to exercise their rights: support phone or the contact form', () => {
    const { container } = renderTerms();
    const rights = container.querySelector('#your-rights')!.closest('section')!;
    const phone = within(rights).getByRole('link', { name: '1-800-555-0199' });
    expect(phone.getAttribute('href')).toBe('tel:1-800-555-0199');
    expect(within(rights).getByRole('link', { name: 'contact form' }).getAttribute('href')).toBe(
      '/contact',
    );
  });
});
