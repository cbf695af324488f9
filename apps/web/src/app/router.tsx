import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PublicLayout } from './layouts/public-layout.tsx';
import { RouteError } from './route-error.tsx';

/** Each page's code is loaded when it is first visited (one chunk per route). */
const page = (load: () => Promise<{ default: React.ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

export const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="/home" replace /> },
      { path: 'home', ...page(() => import('../features/marketing/routes/home-page.tsx')) },
      { path: 'terms', ...page(() => import('../features/legal/routes/terms-page.tsx')) },
      { path: 'contact', ...page(() => import('../features/contact/routes/contact-page.tsx')) },
      { path: 'snapshot/expired', ...page(() => import('../features/snapshot/routes/snapshot-expired-page.tsx')) },
      { path: 'dev/mailbox', ...page(() => import('../features/mailbox/routes/mailbox-page.tsx')) },
      // 001 §2: any other path redirects to /home.
      { path: '*', element: <Navigate to="/home" replace /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
