import { act, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOTIFICATION_EVENT, type NotificationDetail } from '../../lib/events.ts';
import { ToastProvider, useToast, type ToastApi } from './toast.tsx';

const captured: { api?: ToastApi } = {};
function Grab() {
  const toast = useToast();
  useEffect(() => {
    captured.api = toast;
  }, [toast]);
  return null;
}
const api = {
  success: (...args: Parameters<ToastApi['success']>) => captured.api!.success(...args),
  error: (...args: Parameters<ToastApi['error']>) => captured.api!.error(...args),
  alert: (...args: Parameters<ToastApi['alert']>) => captured.api!.alert(...args),
};

describe('toasts (000 §8–9)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    render(
      <ToastProvider>
        <Grab />
      </ToastProvider>,
    );
  });
  afterEach(() => vi.useRealTimers());

  it('shows SUCCESS “Changes have been saved.” politely for 4000 ms', () => {
    act(() => api.success());
    const toast = screen
      .getAllByRole('status')
      .map((region) => region.querySelector('[data-testid="toast"]'))
      .find(Boolean);
    expect(toast?.textContent).toContain('SUCCESS');
    expect(toast?.textContent).toContain('Changes have been saved.');
    act(() => vi.advanceTimersByTime(3999));
    expect(screen.queryByText('Changes have been saved.')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Changes have been saved.')).toBeNull();
  });

  it('shows ERROR “Please try again.” as an alert and emits the notification event', () => {
    const events: NotificationDetail[] = [];
    const listener = (event: Event) =>
      events.push((event as CustomEvent<NotificationDetail>).detail);
    window.addEventListener(NOTIFICATION_EVENT, listener);
    act(() => api.error());
    act(() => api.alert());
    window.removeEventListener(NOTIFICATION_EVENT, listener);

    const alerts = screen
      .getAllByRole('alert')
      .flatMap((region) => [...region.querySelectorAll('[data-testid="toast"]')]);
    expect(alerts.map((toast) => toast.textContent)).toEqual([
      expect.stringContaining('Please try again.'),
      expect.stringContaining('Unable to process request.'),
    ]);
    expect(alerts[0]?.textContent).toContain('ERROR');
    expect(events.map(({ message, type }) => ({ message, type }))).toEqual([
      { message: 'Please try again.', type: 'error' },
      { message: 'Unable to process request.', type: 'alert' },
    ]);
    expect(events[0]?.path).toBe(window.location.pathname);
    expect(Number.isNaN(Date.parse(events[0]!.time))).toBe(false);
  });

  it('places sign-up failures at the bottom centre for a custom time', () => {
    act(() => api.error('Email not valid', { placement: 'bottom-center', durationMs: 5000 }));
    const toast = screen.getByText('Email not valid').closest('.toast-stack');
    expect(toast?.className).toContain('toast-stack--bottom-center');
    act(() => vi.advanceTimersByTime(4999));
    expect(screen.queryByText('Email not valid')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Email not valid')).toBeNull();
  });
});
