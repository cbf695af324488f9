/**
 * The code of the page at each path, by source module (as router.tsx imports it, relative to
 * apps/web): the build turns this into the chunks and stylesheets each page needs beyond the
 * entry (build/page-preloads.ts), and the server names them in the page it sends, so the browser
 * fetches them alongside the entry instead of after it (docs/decisions/020). Paths use the
 * router's syntax (`:param`). Kept next to router.tsx: a page added there belongs here too
 * (page-preloads.test.ts checks both ways).
 */
const ACCOUNT = [
  'src/app/layouts/account-layout.tsx',
  'src/features/account/components/account-route-guard.tsx',
];
const INTEGRATION = [...ACCOUNT, 'src/app/integration-route.tsx'];

export const PAGE_PRELOADS: Record<string, string[]> = {
  '/home': ['src/features/marketing/routes/home-page.tsx'],
  '/terms': ['src/features/legal/routes/terms-page.tsx'],
  '/contact': ['src/features/contact/routes/contact-page.tsx'],
  '/snapshot/expired': ['src/features/snapshot/routes/snapshot-expired-page.tsx'],
  '/signup': ['src/features/signup/routes/signup-page.tsx'],
  '/signup/confirmation': ['src/features/signup/routes/signup-confirmation-page.tsx'],
  '/dev/mailbox': ['src/features/mailbox/routes/mailbox-page.tsx'],
  '/oidc/interaction/:uid': ['src/features/auth/routes/sign-in-page.tsx'],
  '/identity/set-password': ['src/features/identity/routes/set-password-page.tsx'],
  '/identity/reset-password': ['src/features/identity/routes/reset-password-page.tsx'],
  '/identity/forgot-password': ['src/features/identity/routes/forgot-password-page.tsx'],
  '/authlogin': ['src/features/auth/routes/auth-login-page.tsx'],
  '/authlogout': ['src/features/auth/routes/auth-logout-page.tsx'],
  '/logout': ['src/features/auth/routes/logout-page.tsx'],
  '/account/profile': [...ACCOUNT, 'src/features/account/routes/profile-page.tsx'],
  '/account/billing': [...ACCOUNT, 'src/features/account/routes/billing-page.tsx'],
  '/account/subscriptions': [...ACCOUNT, 'src/features/account/routes/subscriptions-page.tsx'],
  '/account/subscriptions/change': [
    ...ACCOUNT,
    'src/features/account/routes/change-subscriptions-page.tsx',
  ],
  '/account/subscriptions/cancel': [
    ...ACCOUNT,
    'src/features/account/routes/cancel-subscription-page.tsx',
  ],
  '/account/subscriptions/cancel/confirmation': [
    ...ACCOUNT,
    'src/features/account/routes/cancel-confirmation-page.tsx',
  ],
  '/account/karid/connect': [...ACCOUNT, 'src/features/account/routes/karid-connect-page.tsx'],
  '/account/carFaxIntegrations': [
    ...INTEGRATION,
    'src/features/integrations/routes/carfax-integrations-page.tsx',
  ],
  '/account/status/carfax': [
    ...INTEGRATION,
    'src/features/integrations/routes/carfax-status-page.tsx',
  ],
  '/account/carfax/login': [
    ...INTEGRATION,
    'src/features/integrations/routes/carfax-login-page.tsx',
  ],
  '/account/carfax/logout': [
    ...INTEGRATION,
    'src/features/integrations/routes/carfax-logout-page.tsx',
  ],
  '/account/autoCheckIntegrations': [
    ...INTEGRATION,
    'src/features/integrations/routes/autocheck-integrations-page.tsx',
  ],
  // The console's shell; it loads its own pages (admin-layout.tsx).
  '/admin': ['src/app/layouts/admin-layout.tsx'],
};
