import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import {
  Navigate,
  Outlet,
  Route,
  Routes,
  lazyPage,
  useLocation,
} from '../../lib/router/router.tsx';
import { ApiError, onApiFailure } from '../../lib/api-client.ts';
import { loadPage } from '../../lib/full-page-navigation.ts';
import { SandboxRibbon } from '../../components/ui/sandbox-ribbon.tsx';
import { createQueryClient } from '../../lib/react-query.ts';
import {
  getStaffSessionQueryOptions,
  useStaffSession,
} from '../../features/admin/api/get-staff-session.ts';
import { AdminHeader, GateHeader } from '../../features/admin/components/admin-header.tsx';
import { LoadFailed, Loading } from '../../components/ui/query-state.tsx';
import { SecondFactor } from '../../features/admin/components/second-factor.tsx';
import { StaffMemberProvider, useRoleAllows } from '../../features/admin/staff-member.tsx';
// The console's styles are a file of their own, linked only here: the app's one stylesheet
// (decision 027) is every page's render-blocking CSS, and the console's has no place in it.
import adminStylesheet from '../../features/admin/admin.css?url';
import { PageLoading } from '../page-loading.tsx';
import { RouteErrorBoundary } from '../route-error.tsx';

// Each console page is a chunk of its own, declared here rather than in router.tsx: the public
// entry then holds one route for the whole console (docs/decisions/006).
const AccountsPage = lazyPage(() => import('../../features/admin/routes/accounts-page.tsx'));
const OverviewPage = lazyPage(() => import('../../features/admin/routes/overview-page.tsx'));
const AccountPage = lazyPage(() => import('../../features/admin/routes/account-page.tsx'));
const PromotionsPage = lazyPage(() => import('../../features/admin/routes/promotions-page.tsx'));
const PricesPage = lazyPage(() => import('../../features/admin/routes/prices-page.tsx'));
const DunningPage = lazyPage(() => import('../../features/admin/routes/dunning-page.tsx'));
const FinancePage = lazyPage(() => import('../../features/admin/routes/finance-page.tsx'));
const InvoicesDuePage = lazyPage(() => import('../../features/admin/routes/invoices-due-page.tsx'));
const InboxPage = lazyPage(() => import('../../features/admin/routes/inbox-page.tsx'));
const MessagePage = lazyPage(() => import('../../features/admin/routes/contact-message-page.tsx'));
const StaffPage = lazyPage(() => import('../../features/admin/routes/staff-page.tsx'));
const SignedOutPage = lazyPage(() => import('../../features/admin/routes/signed-out-page.tsx'));

/** Where sign-out ends and a refused sign-in lands: a page without a session (no gate). */
const SIGNED_OUT_PATH = '/admin/signed-out';

/** The console's pages; paths are whole (our router matches the full path in nested Routes). */
export const ADMIN_ROUTES = (
  <Route path="admin" element={<Outlet />}>
    <Route index element={<ConsoleHome />} />
    <Route path="accounts" element={<AccountsPage />} />
    <Route path="accounts/:userId" element={<AccountPage />} />
    <Route path="promotions" element={<PromotionsPage />} />
    <Route path="prices" element={<PricesPage />} />
    <Route path="dunning" element={<DunningPage />} />
    <Route path="finance" element={<FinancePage />} />
    <Route path="invoices" element={<InvoicesDuePage />} />
    <Route path="inbox" element={<InboxPage />} />
    <Route path="inbox/:messageId" element={<MessagePage />} />
    <Route path="staff" element={<StaffPage />} />
    <Route path="*" element={<Navigate to="/admin" replace />} />
  </Route>
);

/**
 * The console's landing page (issue 29): the business's figures for billing and admin, the
 * account search for support (its queues and search stay its work).
 */
function ConsoleHome() {
  return useRoleAllows('billing') ? <OverviewPage /> : <AccountsPage />;
}

/** The server's staff sign-in (decision 026): the staff client of the embedded provider. */
export const STAFF_LOGIN_URL = '/admin/login';

/**
 * A new console page starts at the top with focus on its content, so screen readers hear the
 * change (not on the first load). The public layout's useNavigationEffects does the same and
 * more (anchors); importing it here made the build split React's runtime out of the entry into a
 * chunk of its own, a larger public first load (docs/decisions/006), so the console has this.
 */
function useFocusOnNavigation(main: RefObject<HTMLElement | null>, pathname: string): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, 0);
    main.current?.focus({ preventScroll: true });
  }, [main, pathname]);
}

/** The code a console call gets once the session still lacks its second factor. */
const SECOND_FACTOR_REQUIRED = 'STAFF_SECOND_FACTOR_REQUIRED';

/**
 * The operator console's shell (/admin/*, issue 19, decision 026), a chunk of its own: nothing of
 * it is in the public or account first load. It asks who is signed in; without a staff session
 * the server's staff sign-in takes over (a full page load), without a verified second factor the
 * enrolment or code page shows, and only then the console with its header and the page.
 */
function AdminShell() {
  const queryClient = useQueryClient();
  const session = useStaffSession();
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  useFocusOnNavigation(main, location.pathname);

  // The second factor verified, the console replaces the code page (another <main>): focus goes
  // to its content, not to <body> (issue 25).
  const verified = session.data ? session.data.secondFactor : null;
  const wasVerified = useRef(verified);
  useEffect(() => {
    if (verified === true && wasVerified.current === false) {
      main.current?.focus({ preventScroll: true });
    }
    wasVerified.current = verified;
  }, [verified]);

  const signedOut =
    session.isError && session.error instanceof ApiError && session.error.status === 401;
  const [expired, setExpired] = useState(false);

  // A session that ends while a page is open (15 minutes idle, 8 hours, ended by an admin) makes
  // every console call 401: back to the sign-in. A lost second factor asks for the code again.
  useEffect(
    () =>
      onApiFailure((error, endpoint) => {
        if (!endpoint.startsWith('/api/admin/')) return;
        if (error.status === 401) setExpired(true);
        else if (error.status === 403 && error.code === SECOND_FACTOR_REQUIRED) {
          void queryClient.invalidateQueries({ queryKey: getStaffSessionQueryOptions().queryKey });
        }
      }),
    [queryClient],
  );
  useEffect(() => {
    if (signedOut || expired) loadPage(STAFF_LOGIN_URL);
  }, [signedOut, expired]);

  let content;
  if (session.isPending) content = <Loading text="Checking your staff sign-in…" />;
  else if (signedOut || expired) content = <Loading text="Taking you to the staff sign-in…" />;
  else if (session.isError) {
    content = (
      <LoadFailed
        text="The console could not be opened."
        error={session.error}
        onRetry={() => void session.refetch()}
      />
    );
  } else if (!session.data.secondFactor) content = <SecondFactor session={session.data} />;

  return (
    <div className="admin">
      <link rel="stylesheet" href={adminStylesheet} />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SandboxRibbon />
      {content === undefined && session.data ? (
        <StaffMemberProvider member={session.data}>
          <AdminHeader />
          <main id="main" ref={main} tabIndex={-1} className="admin-main">
            <RouteErrorBoundary resetKey={location.pathname}>
              <Suspense fallback={<PageLoading />}>
                <Routes>{ADMIN_ROUTES}</Routes>
              </Suspense>
            </RouteErrorBoundary>
          </main>
        </StaffMemberProvider>
      ) : (
        <>
          <GateHeader signedIn={Boolean(session.data)} />
          <main id="main" ref={main} tabIndex={-1} className="admin-main admin-main--gate">
            {content}
          </main>
        </>
      )}
    </div>
  );
}

function SignedOutShell() {
  return (
    <div className="admin">
      <link rel="stylesheet" href={adminStylesheet} />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SandboxRibbon />
      <GateHeader signedIn={false} />
      <main id="main" tabIndex={-1} className="admin-main admin-main--gate">
        <Suspense fallback={<PageLoading />}>
          <SignedOutPage />
        </Suspense>
      </main>
    </div>
  );
}

/** The console's own query client: nothing of it is shared with the account area. */
export default function AdminLayout() {
  const [queryClient] = useState(createQueryClient);
  const { pathname } = useLocation();
  if (pathname.replace(/\/+$/, '').toLowerCase() === SIGNED_OUT_PATH) return <SignedOutShell />;
  return (
    <QueryClientProvider client={queryClient}>
      <AdminShell />
    </QueryClientProvider>
  );
}
