import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useDeferredValue, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigate } from '../../lib/router/router.tsx';
import { BLOCKED_REDIRECT } from '@dealerpass/domain/account/account-routes';
import { accountFlags } from '@dealerpass/domain/account/status';
import { ApiError } from '../../lib/api-client.ts';
import {
  classifyApiFailure,
  installSessionFailureHandler,
} from '../../features/auth/session/session-failure.ts';
import { AccountHeader } from '../../features/account/components/account-header.tsx';
import { AccountNav } from '../../features/account/components/account-nav.tsx';
import { AccountChat } from '../../features/account/components/account-chat.tsx';
import { KarIdBanner } from '../../features/account/components/karid-banner.tsx';
import { NotOperationalNotice } from '../../features/account/components/not-operational-notice.tsx';
import { CancellingProvider } from '../../features/account/cancelling.tsx';
import { CurrentUserProvider, useCurrentUserLoader } from '../../features/account/current-user.tsx';
import { loadPage } from '../../lib/full-page-navigation.ts';
import { createQueryClient } from '../../lib/react-query.ts';
import { takeReturnUrl } from '../../features/account/return-url.ts';
import '../../features/account/account.css';
import { PageLoading } from '../page-loading.tsx';

/** Where the server's sign-in starts; it brings the user back to `returnTo` (docs/decisions/009). */
export function loginUrlFor(pathname: string, search: string): string {
  return `/login?returnTo=${encodeURIComponent(pathname + search)}`;
}

function Waiting({ text }: { text: string }) {
  return (
    <div className="page-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{text}</span>
    </div>
  );
}

/**
 * The shell of /account/* (000 §2, 001 §4): loads the signed-in user, sends a visitor without a
 * session to sign in and a blocked account to /authlogin, watches every API call for a session
 * failure, and gives the pages the user through `useCurrentUser()`, with the account navigation,
 * the DealerPass ID banner, the validating-payment notice and the live chat (000 §1–2, §4; DECISIONS R8).
 */
function AccountShell() {
  const navigate = useNavigate();
  const location = useLocation();

  // Installed before the user is requested (effects run in order), so that call is watched too.
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);
  useEffect(
    () =>
      installSessionFailureHandler({
        onBlocked: () =>
          navigateRef.current(BLOCKED_REDIRECT, { replace: true, state: { blocked: true } }),
      }),
    [],
  );

  const { state: loaded, refetch, retry } = useCurrentUserLoader();
  // The render that follows the user's arrival is the page's largest: as a deferred value React
  // renders it in slices it can interrupt, not as one long task (docs/decisions/027).
  const state = useDeferredValue(loaded);
  const blocked = state.status === 'ready' && accountFlags(state.user).blocked;
  const unauthorized =
    state.status === 'error' && state.error instanceof ApiError && state.error.status === 401;
  // A 403 the session handler is taking care of: the page is about to change.
  const handled =
    state.status === 'error' &&
    state.error instanceof ApiError &&
    classifyApiFailure(state.error, location.pathname) !== null;

  useEffect(() => {
    if (unauthorized) loadPage(loginUrlFor(location.pathname, location.search));
  }, [unauthorized, location.pathname, location.search]);

  useEffect(() => {
    if (blocked) navigate(BLOCKED_REDIRECT, { replace: true, state: { blocked: true } });
  }, [blocked, navigate]);

  // 000 §2: once signed in, follow a stored return URL (and forget it).
  const returnFollowed = useRef(false);
  const ready = state.status === 'ready' && !blocked;
  useEffect(() => {
    if (!ready || returnFollowed.current) return;
    returnFollowed.current = true;
    const url = takeReturnUrl();
    if (url && url !== location.pathname + location.search + location.hash) {
      navigate(url, { replace: true });
    }
  }, [ready, navigate, location.pathname, location.search, location.hash]);

  if (state.status === 'loading') return <Waiting text="Loading your account…" />;
  if (unauthorized || handled) return <Waiting text="Taking you to sign in…" />;
  if (state.status === 'error') {
    return (
      <div className="account-state" role="alert">
        <h1>Your account could not be loaded</h1>
        <p>Something went wrong while loading your account. Please try again.</p>
        <button type="button" className="button button--primary" onClick={retry}>
          Try again
        </button>
      </div>
    );
  }
  if (blocked) return <Waiting text="One moment…" />;

  return (
    <CurrentUserProvider user={state.user} refetch={refetch}>
      <CancellingProvider>
        <AccountHeader />
        <div className="account-shell">
          <AccountNav />
          <div className="account-shell__content">
            <KarIdBanner />
            <NotOperationalNotice />
            <Suspense fallback={<PageLoading />}>
              <Outlet />
            </Suspense>
          </div>
        </div>
        <AccountChat />
      </CancellingProvider>
    </CurrentUserProvider>
  );
}

/** The account area's query client, above everything the area loads (the user first). */
export default function AccountLayout() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <AccountShell />
    </QueryClientProvider>
  );
}
