import {
  sessionFailureAction,
  type ISessionFailureAction,
} from '@dealerpass/domain/account/session-failure';
import type { TClientLogRequest } from '@dealerpass/domain/schemas/client-log';
import { onApiFailure, type ApiError } from '../../../lib/api-client.ts';
import { loadPage } from '../../../lib/full-page-navigation.ts';
import { logout } from '../api/logout.ts';
import { postClientLog } from '../api/post-client-log.ts';

/** The 403 code every `/api/users/*` route but the current-user call gives a blocked account (009). */
export const ACCOUNT_BLOCKED_CODE = 'ACCOUNT_BLOCKED';

export type TApiFailureOutcome =
  { kind: 'session'; action: ISessionFailureAction } | { kind: 'blocked' } | null;

/** What a failed call means for the signed-in page, or null when it is the caller's business. */
export function classifyApiFailure(error: ApiError, pathname: string): TApiFailureOutcome {
  if (error.status !== 403) return null;
  const action = sessionFailureAction(error.body, pathname);
  if (action) return { kind: 'session', action };
  if (error.code === ACCOUNT_BLOCKED_CODE) return { kind: 'blocked' };
  return null;
}

/** The outside world the handler touches; tests pass their own. */
export interface ISessionFailureEffects {
  pathname(): string;
  href(): string;
  postLog(entry: TClientLogRequest): Promise<unknown>;
  logout(): Promise<unknown>;
  loadPage(url: string): void;
}

const BROWSER_EFFECTS: ISessionFailureEffects = {
  pathname: () => window.location.pathname,
  href: () => window.location.href,
  postLog: postClientLog,
  logout,
  loadPage,
};

/**
 * 001 §4: report the 403 to the client log, log out first when a newer sign-in ended this
 * session, then load the context's login page with `err`. Failures of the report and of the
 * logout are ignored: the user must reach the login page either way.
 */
export async function handleSessionFailure(
  error: ApiError,
  endpoint: string,
  action: ISessionFailureAction,
  effects: ISessionFailureEffects,
): Promise<void> {
  const failure = typeof error.body === 'string' ? error.body : String(error.code);
  try {
    await effects.postLog({
      err: failure,
      message: `403 ${failure} from ${endpoint}`,
      url: effects.href(),
    });
  } catch {
    // ignored (001 §4: the report is best effort)
  }
  if (action.logout) {
    try {
      await effects.logout();
    } catch {
      // ignored: the session is already over on the server
    }
  }
  effects.loadPage(action.redirectTo);
}

export interface IInstallOptions {
  /** A 403 ACCOUNT_BLOCKED from any call: the layout sends the user to /authlogin (000 §4). */
  onBlocked?: () => void;
  effects?: Partial<ISessionFailureEffects>;
}

/**
 * Watches every failed API call of the page (install once, in the account layout). The first
 * session failure wins: the calls that fail after it (the logout itself may answer 403) are not
 * handled again. Returns the uninstaller.
 */
export function installSessionFailureHandler(options: IInstallOptions = {}): () => void {
  const effects: ISessionFailureEffects = { ...BROWSER_EFFECTS, ...options.effects };
  let handling = false;
  return onApiFailure((error, endpoint) => {
    if (handling) return;
    const outcome = classifyApiFailure(error, effects.pathname());
    if (!outcome) return;
    if (outcome.kind === 'blocked') {
      options.onBlocked?.();
      return;
    }
    handling = true;
    void handleSessionFailure(error, endpoint, outcome.action, effects);
  });
}
