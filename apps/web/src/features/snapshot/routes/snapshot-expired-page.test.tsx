import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/router/router.tsx';
import SnapshotExpiredPage from './snapshot-expired-page.tsx';

describe('SnapshotExpiredPage', () => {
  afterEach(cleanup);

  it('shows the specified heading, message, support phone and a way home', () => {
    const { container } = render(
      <MemoryRouter initialEntries={['/snapshot/expired']}>
        <SnapshotExpiredPage />
      </MemoryRouter>,
    );
    expect(container.querySelectorAll('h1')).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('SNAPSHOT LINK EXPIRED');
    expect(
      screen.getByText(
        'This link has expired and can no longer be viewed. Please request a new link from the original sender.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: '1-800-555-0199' }).getAttribute('href')).toBe(
      'tel:1-800-555-0199',
    );
    expect(screen.getByRole('link', { name: /home page/ }).getAttribute('href')).toBe('/home');
    expect(document.title).toContain('DealerPass');
  });
});
