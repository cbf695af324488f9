import { UNSAFE_createBrowserHistory } from 'react-router';
import { emitAnalyticsEvent } from '../lib/events.ts';

type BrowserHistory = ReturnType<typeof UNSAFE_createBrowserHistory>;
type HistoryLocation = BrowserHistory['location'];

function emitHistoryChange(location: HistoryLocation): void {
  emitAnalyticsEvent('history change', {
    path: location.pathname,
    search: location.search,
    hash: location.hash,
  });
}

/**
 * The browser history the router runs on, emitting 001 §2's history-change event for the first
 * page and for every push, replace and back/forward. The event comes from history itself, not
 * from rendering: React Router applies navigations as transitions, and a navigation superseded
 * before its lazy page has loaded would otherwise never be reported.
 */
export function createAppHistory(): BrowserHistory {
  const history = UNSAFE_createBrowserHistory({ v5Compat: true });
  emitHistoryChange(history.location);
  // React Router's history takes one listener, the router's; ours rides along with it.
  const listen: BrowserHistory['listen'] = (listener) =>
    history.listen((update) => {
      emitHistoryChange(update.location);
      listener(update);
    });
  return Object.assign(Object.create(history) as BrowserHistory, { listen });
}
