import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorSummary } from './error-summary.tsx';

describe('ErrorSummary', () => {
  afterEach(cleanup);

  it('lists each message once, linked to the first field that carries it (000 §8)', () => {
    render(
      <ErrorSummary
        title="There is a problem"
        focusKey={1}
        items={[
          { message: 'Invalid credentials. Please try again.', fieldId: 'autocheck-id' },
          { message: 'Invalid credentials. Please try again.', fieldId: 'autocheck-password' },
          { message: 'Invalid credentials. Please try again.' },
          { message: 'City is required.', fieldId: 'city' },
        ]}
      />,
    );
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Invalid credentials. Please try again.',
      'City is required.',
    ]);
    expect(
      screen
        .getByRole('link', { name: 'Invalid credentials. Please try again.' })
        .getAttribute('href'),
    ).toBe('#autocheck-id');
  });
});
