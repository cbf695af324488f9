import { Suspense, useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation } from '../../lib/router/router.tsx';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { SandboxRibbon } from '../../components/ui/sandbox-ribbon.tsx';
import {
  CookieConsent,
  OPEN_COOKIE_PREFERENCES,
} from '../../features/consent/components/cookie-consent.tsx';
import { PageLoading } from '../page-loading.tsx';
import { RouteErrorBoundary } from '../route-error.tsx';
import { useNavigationEffects } from '../use-navigation-effects.ts';

export const COPYRIGHT_START_YEAR = 2008;

/** 001 §2: the public pages that offer the live chat. */
const PUBLIC_CHAT_PATHS: readonly string[] = [
  '/contact',
  '/home',
  '/authlogin',
  '/app/login',
  '/signup',
];

/** Header, footer and the outlet of every public page (001 §2 "Public layout"). */
export function PublicLayout() {
  const config = runtimeConfig();
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  useNavigationEffects(main);

  // 001 §2: on the public side the chat appears only on these pages (R8: when configured). Its
  // loader is fetched only when a chat is configured, so it is not in the first load otherwise.
  const chatHere = PUBLIC_CHAT_PATHS.includes(location.pathname.replace(/\/+$/, ''));
  const inAccount = location.pathname.startsWith('/account');
  useEffect(() => {
    if (!config.chat || inAccount) return;
    void import('../../lib/chat-widget.ts').then((chat) =>
      chatHere ? chat.showChat() : chat.hideChat(),
    );
  }, [config.chat, chatHere, inAccount]);

  return (
    <div className="site">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {/* First in the focus order after the skip link: a keyboard user decides on cookies before
          the page, not after every link of it (the banner is fixed at the bottom of the screen). */}
      <CookieConsent />
      <SandboxRibbon />
      <header className="site-header">
        {/* The name is the visible text and then what the link does (WCAG 2.5.3: the label is
            in the name); the mark is drawn by the style sheet, so it adds no letter to either. */}
        <Link to="/home" className="site-header__brand">
          <span className="brand-mark" aria-hidden="true" />
          {config.companyName} <span className="visually-hidden">home</span>
        </Link>
        <nav aria-label="Main" className="site-nav">
          <ul>
            <li>
              <NavLink to="/home">Home</NavLink>
            </li>
            <li>
              <a href={config.launchAppUrl}>Launch Application</a>
            </li>
            <li>
              <NavLink to="/account">Account</NavLink>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" ref={main} tabIndex={-1} className="site-main">
        <RouteErrorBoundary resetKey={location.pathname}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <footer className="site-footer">
        <nav aria-label="Legal">
          <ul>
            <li>
              <Link to="/terms#terms">Terms of Use</Link>
            </li>
            <li>
              <Link to="/terms#privacy">Privacy Notice</Link>
            </li>
            <li>
              <Link to="/terms#your-rights">Exercise Your Rights</Link>
            </li>
            <li>
              <button
                type="button"
                className="button button--link"
                onClick={() => window.dispatchEvent(new Event(OPEN_COOKIE_PREFERENCES))}
              >
                Manage Cookies
              </button>
            </li>
          </ul>
        </nav>
        <p className="site-footer__copyright">
          © {COPYRIGHT_START_YEAR}–{new Date().getFullYear()} {config.companyName}. All rights
          reserved.
        </p>
      </footer>
    </div>
  );
}
