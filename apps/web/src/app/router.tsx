import { lazy } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
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
        {/* 001 §2: any other path redirects to /home. */}
        <Route path="*" element={<Navigate to="/home" replace />} />
      </Route>
    </Routes>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
