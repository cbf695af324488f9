import { requestHeaders } from './request-headers.ts';

/**
 * GET requests a page is known to make first, sent by the entry while the page's code is still
 * loading (docs/decisions/027): the account area's current user no longer waits for the account
 * chunks. The response is handed, once, to the first `request()` of that endpoint, which reads it
 * as it reads any other; one that nobody takes is never read.
 */
const started = new Map<string, Promise<Response>>();

export function startEarlyGet(endpoint: string): void {
  const response = fetch(endpoint, {
    method: 'GET',
    headers: requestHeaders(),
    credentials: 'include',
  });
  // A network failure is reported by the request() that takes it, not here.
  response.catch(() => undefined);
  started.set(endpoint, response);
}

/** The response of an early GET of this endpoint, once; later calls send their own. */
export function takeEarlyGet(endpoint: string): Promise<Response> | undefined {
  const response = started.get(endpoint);
  started.delete(endpoint);
  return response;
}
