import { Navigate, Route, Router, Routes, lazyPage, preloadRoute } from '../lib/router/router.tsx';
import { createAppHistory } from './app-history.ts';
import { PublicLayout } from './layouts/public-layout.tsx';

// Each page's code is loaded when it is first visited (one chunk per page), or before the first
// render for the page the app opens on (preloadPage, from main.tsx). The router is our own small one
// (docs/decisions/006-first-load-budget.md, docs/decisions/020).
const HomePage = lazyPage(() => import('../features/marketing/routes/home-page.tsx'));
const TermsPage = lazyPage(() => import('../features/legal/routes/terms-page.tsx'));
const ContactPage = lazyPage(() => import('../features/contact/routes/contact-page.tsx'));
const SnapshotExpiredPage = lazyPage(
  () => import('../features/snapshot/routes/snapshot-expired-page.tsx'),
);
const SignupPage = lazyPage(() => import('../features/signup/routes/signup-page.tsx'));
const SignupConfirmationPage = lazyPage(
  () => import('../features/signup/routes/signup-confirmation-page.tsx'),
);
const MailboxPage = lazyPage(() => import('../features/mailbox/routes/mailbox-page.tsx'));
// Identity and the account area (docs/decisions/009). /login, /app/login and /web/oauth/* are the
// server's: the SPA has no route for them, and links to them are plain anchors (full navigation).
const SignInPage = lazyPage(() => import('../features/auth/routes/sign-in-page.tsx'));
const AuthLoginPage = lazyPage(() => import('../features/auth/routes/auth-login-page.tsx'));
const AuthLogoutPage = lazyPage(() => import('../features/auth/routes/auth-logout-page.tsx'));
const LogoutPage = lazyPage(() => import('../features/auth/routes/logout-page.tsx'));
const SetPasswordPage = lazyPage(() => import('../features/identity/routes/set-password-page.tsx'));
const ResetPasswordPage = lazyPage(
  () => import('../features/identity/routes/reset-password-page.tsx'),
);
const ForgotPasswordPage = lazyPage(
  () => import('../features/identity/routes/forgot-password-page.tsx'),
);
const AccountLayout = lazyPage(() => import('./layouts/account-layout.tsx'));
const KarIdConnectPage = lazyPage(
  () => import('../features/account/routes/karid-connect-page.tsx'),
);
const ProfilePage = lazyPage(() => import('../features/account/routes/profile-page.tsx'));
const BillingPage = lazyPage(() => import('../features/account/routes/billing-page.tsx'));
const SubscriptionsPage = lazyPage(
  () => import('../features/account/routes/subscriptions-page.tsx'),
);
const ChangeSubscriptionsPage = lazyPage(
  () => import('../features/account/routes/change-subscriptions-page.tsx'),
);
const CancelSubscriptionPage = lazyPage(
  () => import('../features/account/routes/cancel-subscription-page.tsx'),
);
const CancelConfirmationPage = lazyPage(
  () => import('../features/account/routes/cancel-confirmation-page.tsx'),
);
// The guard is small and every account page needs it: it comes with the (lazy) account layout.
const AccountRouteGuard = lazyPage(() =>
  import('../features/account/components/account-route-guard.tsx').then((module) => ({
    default: module.AccountRouteGuard,
  })),
);
// Vehicle-history integrations (issue 8): inside the account guard (which applies the CF and AC
// rule), each page is handed its user by IntegrationRoute, a chunk of its own.
const IntegrationRoute = lazyPage(() => import('./integration-route.tsx'));
const CarfaxIntegrationsPage = lazyPage(
  () => import('../features/integrations/routes/carfax-integrations-page.tsx'),
);
const CarfaxStatusPage = lazyPage(
  () => import('../features/integrations/routes/carfax-status-page.tsx'),
);
const CarfaxLoginPage = lazyPage(
  () => import('../features/integrations/routes/carfax-login-page.tsx'),
);
const CarfaxLogoutPage = lazyPage(
  () => import('../features/integrations/routes/carfax-logout-page.tsx'),
);
const AutoCheckIntegrationsPage = lazyPage(
  () => import('../features/integrations/routes/autocheck-integrations-page.tsx'),
);
// The operator console (issue 19, decision 026): one route into a chunk of its own, outside the
// public layout. Its pages are declared and loaded inside that chunk (admin-layout.tsx), so the
// entry carries nothing of the console but this line.
const AdminLayout = lazyPage(() => import('./layouts/admin-layout.tsx'));

export const APP_ROUTES = (
  <>
    {/* /admin/login and /admin/oauth/callback are the server's (full page loads). */}
    <Route path="admin/*" element={<AdminLayout />} />
    <Route element={<PublicLayout />}>
      <Route index element={<Navigate to="/home" replace />} />
      <Route path="home" element={<HomePage />} />
      <Route path="terms" element={<TermsPage />} />
      <Route path="contact" element={<ContactPage />} />
      <Route path="snapshot/expired" element={<SnapshotExpiredPage />} />
      <Route path="signup" element={<SignupPage />} />
      <Route path="signup/confirmation" element={<SignupConfirmationPage />} />
      {/* 001 §2: any other path inside /signup returns to it; R2: /signupv2 redirects there. */}
      <Route path="signup/*" element={<Navigate to="/signup" replace />} />
      <Route path="signupv2" element={<Navigate to="/signup" replace />} />
      <Route path="dev/mailbox" element={<MailboxPage />} />
      <Route path="oidc/interaction/:uid" element={<SignInPage />} />
      <Route path="identity/set-password" element={<SetPasswordPage />} />
      <Route path="identity/reset-password" element={<ResetPasswordPage />} />
      <Route path="identity/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="authlogin" element={<AuthLoginPage />} />
      <Route path="authlogout" element={<AuthLogoutPage />} />
      <Route path="logout" element={<LogoutPage />} />
      <Route path="account" element={<AccountLayout />}>
        {/* Every account route is inside the guard (000 §2, §6): it redirects by the domain's
              access rule (inactive → billing, unknown → profile, CF/AC codes, started cancel).
              The Carfax and AutoCheck pages go in here too and are guarded by it. */}
        <Route element={<AccountRouteGuard />}>
          <Route index element={<Navigate to="/account/profile" replace />} />
          <Route path="profile" element={<ProfilePage />} />
          <Route path="billing" element={<BillingPage />} />
          <Route path="subscriptions" element={<SubscriptionsPage />} />
          <Route path="subscriptions/change" element={<ChangeSubscriptionsPage />} />
          <Route path="subscriptions/cancel" element={<CancelSubscriptionPage />} />
          <Route path="subscriptions/cancel/confirmation" element={<CancelConfirmationPage />} />
          <Route path="karid/connect" element={<KarIdConnectPage />} />
          <Route
            path="carFaxIntegrations"
            element={<IntegrationRoute code="CF" page={CarfaxIntegrationsPage} />}
          />
          <Route
            path="status/carfax"
            element={<IntegrationRoute code="CF" page={CarfaxStatusPage} />}
          />
          <Route
            path="carfax/login"
            element={<IntegrationRoute code="CF" page={CarfaxLoginPage} />}
          />
          <Route
            path="carfax/logout"
            element={<IntegrationRoute code="CF" page={CarfaxLogoutPage} />}
          />
          <Route
            path="autoCheckIntegrations"
            element={<IntegrationRoute code="AC" page={AutoCheckIntegrationsPage} />}
          />
          {/* The guard sends / and unknown paths to the profile. */}
          <Route path="*" element={<Navigate to="/account/profile" replace />} />
        </Route>
      </Route>
      {/* 001 §2: any other path redirects to /home. */}
      <Route path="*" element={<Navigate to="/home" replace />} />
    </Route>
  </>
);

export function AppRoutes() {
  return <Routes>{APP_ROUTES}</Routes>;
}

/** Loads the code of the page at this path, so the first render shows it (no loading state). */
export function preloadPage(pathname: string): Promise<void> {
  return preloadRoute(APP_ROUTES, pathname);
}

const history = createAppHistory();

export function App() {
  return (
    <Router history={history}>
      <AppRoutes />
    </Router>
  );
}
