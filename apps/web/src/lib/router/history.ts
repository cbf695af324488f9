/** Where the app is: the parts of the URL the pages read, the entry's state and a key per entry. */
export interface Location {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  key: string;
}

export interface History {
  readonly location: Location;
  push(to: string, state?: unknown): void;
  replace(to: string, state?: unknown): void;
  go(delta: number): void;
  /** Called after every push, replace and back/forward; returns the unsubscribe. */
  listen(listener: (location: Location) => void): () => void;
}

interface EntryState {
  usr: unknown;
  key: string;
}

function newKey(): string {
  return Math.random().toString(36).slice(2, 10);
}

/** The path, query and fragment of `to`, resolved against the current location. */
export function resolvePath(to: string, from: Pick<Location, 'pathname' | 'search'>) {
  const url = new URL(to, `http://app${from.pathname}${from.search}`);
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

export function createHref(location: Pick<Location, 'pathname' | 'search' | 'hash'>): string {
  return location.pathname + location.search + location.hash;
}

/** The browser's own history (pushState, popstate). */
export function createBrowserHistory(): History {
  const listeners = new Set<(location: Location) => void>();
  const read = (): Location => {
    const entry = window.history.state as Partial<EntryState> | null;
    return {
      pathname: window.location.pathname,
      search: window.location.search,
      hash: window.location.hash,
      state: entry?.usr ?? null,
      key: entry?.key ?? 'default',
    };
  };
  let location = read();
  const notify = () => listeners.forEach((listener) => listener(location));
  const change = (method: 'pushState' | 'replaceState', to: string, state: unknown) => {
    const path = resolvePath(to, location);
    const entry: EntryState = { usr: state ?? null, key: newKey() };
    window.history[method](entry, '', createHref(path));
    location = { ...path, state: entry.usr, key: entry.key };
    notify();
  };
  window.addEventListener('popstate', () => {
    location = read();
    notify();
  });
  return {
    get location() {
      return location;
    },
    push: (to, state) => change('pushState', to, state),
    replace: (to, state) => change('replaceState', to, state),
    go: (delta) => window.history.go(delta),
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A starting entry of a memory history: a path, or a path with its state. */
export type MemoryEntry =
  string | { pathname: string; search?: string; hash?: string; state?: unknown };

/** A history kept in memory, for tests. */
export function createMemoryHistory(initialEntries: MemoryEntry[] = ['/']): History {
  const listeners = new Set<(location: Location) => void>();
  const at = (to: string, state: unknown, from = { pathname: '/', search: '' }): Location => ({
    ...resolvePath(to, from),
    state: state ?? null,
    key: newKey(),
  });
  const entries = (initialEntries.length ? initialEntries : ['/']).map((entry) =>
    typeof entry === 'string'
      ? at(entry, null)
      : at(`${entry.pathname}${entry.search ?? ''}${entry.hash ?? ''}`, entry.state),
  );
  let index = entries.length - 1;
  const notify = () => listeners.forEach((listener) => listener(entries[index]!));
  return {
    get location() {
      return entries[index]!;
    },
    push(to, state) {
      entries.splice(index + 1, entries.length, at(to, state, entries[index]));
      index += 1;
      notify();
    },
    replace(to, state) {
      entries[index] = at(to, state, entries[index]);
      notify();
    },
    go(delta) {
      index = Math.min(Math.max(index + delta, 0), entries.length - 1);
      notify();
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
