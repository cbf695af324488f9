import { lazy } from 'react';
import { Navigate, Route, Routes, unstable_HistoryRouter as HistoryRouter } from 'react-router';
import { createAppHistory } from './app-history.ts';
import { PublicLayout } from './layouts/public-layout.tsx';

// Each page's code is loaded when it is first visited (one chunk per page). Declarative routes
// keep React Router's data-router code out of the first load (docs/decisions/006-first-load-budget.md).
const HomePage = lazy(() => import('../features/marketing/routes/home-page.tsx'));
const TermsPage = lazy(() => import('../features/legal/routes/terms-page.tsx'));
const ContactPage = lazy(() => import('../features/contact/routes/contact-page.tsx'));
const SnapshotExpiredPage = lazy(
  () => import('../features/snapshot/routes/snapshot-expired-page.tsx'),
);
const MailboxPage = lazy(() => import('../features/mailbox/routes/mailbox-page.tsx'));
// Identity and the account area (docs/decisions/009). /login, /app/login and /web/oauth/* are the
// server's: the SPA has no route for them, and links to them are plain anchors (full navigation).
const SignInPage = lazy(() => import('../features/auth/routes/sign-in-page.tsx'));
const AuthLoginPage = lazy(() => import('../features/auth/routes/auth-login-page.tsx'));
const AuthLogoutPage = lazy(() => import('../features/auth/routes/auth-logout-page.tsx'));
const LogoutPage = lazy(() => import('../features/auth/routes/logout-page.tsx'));
const SetPasswordPage = lazy(() => import('../features/identity/routes/set-password-page.tsx'));
const ResetPasswordPage = lazy(() => import('../features/identity/routes/reset-password-page.tsx'));
const ForgotPasswordPage = lazy(
  () => import('../features/identity/routes/forgot-password-page.tsx'),
);
const AccountLayout = lazy(() => import('./layouts/account-layout.tsx'));
const AccountHomePage = lazy(() => import('../features/account/routes/account-home-page.tsx'));
const KarIdConnectPage = lazy(() => import('../features/account/routes/karid-connect-page.tsx'));
// Vehicle-history integrations (issue 8), each behind the CF or AC access rule (the guard is a
// chunk of its own too: it reads the account's user, which the first load does not need).
const IntegrationRoute = lazy(() => import('./integration-route.tsx'));
const CarfaxIntegrationsPage = lazy(
  () => import('../features/integrations/routes/carfax-integrations-page.tsx'),
);
const CarfaxStatusPage = lazy(
  () => import('../features/integrations/routes/carfax-status-page.tsx'),
);
const CarfaxLoginPage = lazy(() => import('../features/integrations/routes/carfax-login-page.tsx'));
const CarfaxLogoutPage = lazy(
  () => import('../features/integrations/routes/carfax-logout-page.tsx'),
);
const AutoCheckIntegrationsPage = lazy(
  () => import('../features/integrations/routes/autocheck-integrations-page.tsx'),
);

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        <Route index element={<Navigate to="/home" replace />} />
        <Route path="home" element={<HomePage />} />
        <Route path="terms" element={<TermsPage />} />
        <Route path="contact" element={<ContactPage />} />
        <Route path="snapshot/expired" element={<SnapshotExpiredPage />} />
        <Route path="dev/mailbox" element={<MailboxPage />} />
        <Route path="oidc/interaction/:uid" element={<SignInPage />} />
        <Route path="identity/set-password" element={<SetPasswordPage />} />
        <Route path="identity/reset-password" element={<ResetPasswordPage />} />
        <Route path="identity/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="authlogin" element={<AuthLoginPage />} />
        <Route path="authlogout" element={<AuthLogoutPage />} />
        <Route path="logout" element={<LogoutPage />} />
        <Route path="account" element={<AccountLayout />}>
          <Route index element={<AccountHomePage />} />
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
          {/* Until the account pages of issue 7 exist, every account path shows the welcome. */}
          <Route path="*" element={<AccountHomePage />} />
        </Route>
        {/* 001 §2: any other path redirects to /home. */}
        <Route path="*" element={<Navigate to="/home" replace />} />
      </Route>
    </Routes>
  );
}

const history = createAppHistory();

export function App() {
  return (
    <HistoryRouter history={history}>
      <AppRoutes />
    </HistoryRouter>
  );
}
