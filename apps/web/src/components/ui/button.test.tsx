import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SubmitButton } from './button.tsx';

describe('SubmitButton', () => {
  afterEach(cleanup);

  it('submits its form and keeps the focused field focused when pressed', () => {
    const onSubmit = vi.fn((event: { preventDefault(): void }) => event.preventDefault());
    const onMouseDown = vi.fn();
    render(
      <form onSubmit={onSubmit}>
        <input aria-label="Name" />
        <SubmitButton onMouseDown={onMouseDown}>Send</SubmitButton>
      </form>,
    );
    const button = screen.getByRole('button', { name: 'Send' });
    expect(button.getAttribute('type')).toBe('submit');

    // A default-prevented mousedown is what stops the browser moving focus (and blurring the field).
    expect(fireEvent.mouseDown(button)).toBe(false);
    expect(onMouseDown).toHaveBeenCalledTimes(1);

    fireEvent.click(button);
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('is disabled and busy while busy', () => {
    render(<SubmitButton busy>Sending…</SubmitButton>);
    const button = screen.getByRole('button', { name: 'Sending…' });
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
  });
});
