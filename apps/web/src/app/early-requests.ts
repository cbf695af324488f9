import { CURRENT_USER_ENDPOINT } from '../features/account/api/current-user-endpoint.ts';
import { interactionDetailsEndpoint } from '../features/auth/api/interaction-details-endpoint.ts';

const ACCOUNT_PATH = /^\/account(\/|$)/i;
const SIGN_IN_PATH = /^\/oidc\/interaction\/([^/]+)\/?$/i;

/**
 * The GET a page makes first, which main.tsx sends beside the page's code rather than once that
 * code has arrived and rendered (docs/decisions/027): the account area's signed-in user, the
 * sign-in page's interaction details. Paths are matched as the router matches them (any case, a
 * trailing slash), and the endpoint is spelled as the page's own call spells it, so the page
 * takes the response (lib/early-request.ts).
 */
export function earlyRequestsFor(pathname: string): string[] {
  if (ACCOUNT_PATH.test(pathname)) return [CURRENT_USER_ENDPOINT];
  const signIn = SIGN_IN_PATH.exec(pathname);
  if (signIn?.[1]) {
    try {
      return [interactionDetailsEndpoint(decodeURIComponent(signIn[1]))];
    } catch {
      return []; // a malformed escape: the page's own call will tell
    }
  }
  return [];
}
