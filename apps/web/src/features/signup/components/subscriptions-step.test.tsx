import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PLATFORM_FEE_FROM } from '@dealerpass/domain/prices';
import { selectionFromCodes } from '@dealerpass/domain/selection';
import { SubscriptionsStep } from './subscriptions-step.tsx';

/**
 * R3: the calculator shows the price of the moment it is shown. A visitor who is on the page
 * when the platform fee takes effect sees the total the server will charge, not the total of
 * when the wizard was opened.
 */
describe('SubscriptionsStep across a price change (R3)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval'] });
    vi.setSystemTime(new Date(Date.parse(PLATFORM_FEE_FROM) - 2_000));
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    localStorage.clear();
  });

  it('re-prices the selection when the platform fee takes effect while the page is open', () => {
    render(
      <SubscriptionsStep
        initial={selectionFromCodes(['NADA', 'MMR'])}
        onDone={async () => {}}
        onBack={() => {}}
      />,
    );
    // NADA 70 + MMR 65, no fee yet.
    expect(screen.getByTestId('calculator-total').textContent).toBe('$135.00');
    act(() => {
      vi.advanceTimersByTime(3_000);
    });
    expect(screen.getByTestId('calculator-total').textContent).toBe('$138.00');
    expect(localStorage.getItem('sub_total')).toBe('138.00');
  });
});
