import { createBrowserHistory, type History, type Location } from '../lib/router/router.tsx';
import { emitAnalyticsEvent } from '../lib/events.ts';

function emitHistoryChange(location: Location): void {
  emitAnalyticsEvent('history change', {
    path: location.pathname,
    search: location.search,
    hash: location.hash,
  });
}

/**
 * The browser history the router runs on, emitting 001 §2's history-change event for the first
 * page and for every push, replace and back/forward. The event comes from history itself, not
 * from rendering: navigations are applied as transitions, and a navigation superseded before its
 * lazy page has loaded would otherwise never be reported.
 */
export function createAppHistory(): History {
  const history = createBrowserHistory();
  emitHistoryChange(history.location);
  history.listen(emitHistoryChange);
  return history;
}
