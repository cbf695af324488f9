/**
 * A full page load, not a router navigation: for paths the server answers (`/login`, the
 * provider's URLs, the login pages after a session failure). A module of its own so tests can
 * replace it (jsdom cannot navigate).
 */
export function loadPage(url: string): void {
  window.location.assign(url);
}

/** A full page load that replaces the current history entry (001 §2: the sign-up's Close). */
export function replacePage(url: string): void {
  window.location.replace(url);
}
