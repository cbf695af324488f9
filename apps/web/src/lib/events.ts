/**
 * In-page events other parts of the product listen to: analytics events (001 §9, e.g. the
 * history change on every navigation) and the internal notification event that error and alert
 * toasts emit (000 §8). They stay in the page; nothing is sent to a third party from here.
 */
export const ANALYTICS_EVENT = 'dealerpass:analytics';
export const NOTIFICATION_EVENT = 'dealerpass:notification';

export interface AnalyticsDetail {
  name: string;
  [key: string]: unknown;
}

export interface NotificationDetail {
  message: string;
  type: 'error' | 'alert';
  time: string;
  path: string;
}

export function emitAnalyticsEvent(name: string, detail: Record<string, unknown> = {}): void {
  window.dispatchEvent(
    new CustomEvent<AnalyticsDetail>(ANALYTICS_EVENT, { detail: { name, ...detail } }),
  );
}

export function emitNotification(message: string, type: NotificationDetail['type']): void {
  const detail: NotificationDetail = {
    message,
    type,
    time: new Date().toISOString(),
    path: window.location.pathname,
  };
  window.dispatchEvent(new CustomEvent<NotificationDetail>(NOTIFICATION_EVENT, { detail }));
}
