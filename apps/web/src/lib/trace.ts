/**
 * The three trace ids every request carries (001 §7): a trace name plus a random number below
 * 2^31, kept in local storage so a page, a browser session and a user keep theirs across reloads.
 */
export const TRACE_LIMIT = 2147483648;
export const TRACE_KEYS = {
  page: 'dp.trace.pageId',
  session: 'dp.trace.sessionId',
  user: 'dp.trace.userId',
} as const;

function randomBelow(limit: number): number {
  const values = new Uint32Array(1);
  crypto.getRandomValues(values);
  return (values[0] ?? 0) % limit;
}

export function newTraceId(name: string): string {
  return `${name}-${randomBelow(TRACE_LIMIT)}`;
}

function stored(key: string, name: string, storage: Storage | null): string {
  const existing = storage?.getItem(key);
  if (existing && /^[\w.-]{1,80}$/.test(existing)) return existing;
  const id = newTraceId(name);
  try {
    storage?.setItem(key, id);
  } catch {
    // Storage may be full or disabled; the id still works for this page.
  }
  return id;
}

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** A new page id for every document load; session and user ids persist. */
let pageId: string | null = null;

export function traceHeaders(): Record<string, string> {
  const storage = safeLocalStorage();
  if (!pageId) {
    pageId = newTraceId('web-page');
    try {
      storage?.setItem(TRACE_KEYS.page, pageId);
    } catch {
      // see above
    }
  }
  return {
    'x-trace-page-id': pageId,
    'x-trace-session-id': stored(TRACE_KEYS.session, 'web-session', storage),
    'x-trace-user-id': stored(TRACE_KEYS.user, 'web-user', storage),
  };
}
