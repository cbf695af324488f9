import { CURRENT_USER_ENDPOINT } from '../features/account/api/current-user-endpoint.ts';

const ACCOUNT_PATH = /^\/account(\/|$)/i;

/**
 * The GET a page makes first, which main.tsx sends beside the page's code rather than once that
 * code has arrived and rendered (docs/decisions/027): the account area's signed-in user, which
 * every account page waits for. Paths are matched as the router matches them (any case, a
 * trailing slash), and the endpoint is spelled as the page's own call spells it, so the page
 * takes the response (lib/early-request.ts). The sign-in page's interaction details are not sent
 * early: Lighthouse's model made its first paint wait for them (decision 027).
 */
export function earlyRequestsFor(pathname: string): string[] {
  return ACCOUNT_PATH.test(pathname) ? [CURRENT_USER_ENDPOINT] : [];
}
