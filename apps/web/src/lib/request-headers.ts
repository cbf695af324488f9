import { readMeta } from './runtime-config.ts';
import { traceHeaders } from './trace.ts';

/**
 * The headers of every API request (001 §7): JSON with accept, no-cache and content type, the
 * CSRF token and referrer origin from the page's meta tags, and the three trace headers. `extra`
 * (e.g. a test's own header) cannot replace them.
 */
export function requestHeaders(extra?: Record<string, string>): Record<string, string> {
  return {
    ...extra,
    accept: 'application/json',
    'cache-control': 'no-cache',
    pragma: 'no-cache',
    'content-type': 'application/json',
    'x-csrf-token': readMeta('csrf-token') ?? '',
    'x-referrer-origin': readMeta('referrer-origin') ?? window.location.origin,
    ...traceHeaders(),
  };
}
