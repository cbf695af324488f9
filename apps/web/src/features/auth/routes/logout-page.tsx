import { useEffect, useRef } from 'react';
import { useNavigate } from '../../../lib/router/router.tsx';
import { emitAnalyticsEvent } from '../../../lib/events.ts';
import { loadPage } from '../../../lib/full-page-navigation.ts';
import { logout } from '../api/logout.ts';
import { postClientLog } from '../api/post-client-log.ts';

/**
 * /logout (000 §7, 001 §4): the server ends the session and names where to go (the provider's
 * end-session URL, which comes back through the logout callback to /authlogout). A failed logout
 * is only logged (000 §8) and the user still lands on /authlogout.
 */
export default function LogoutPage() {
  const navigate = useNavigate();
  // Once per page, also under StrictMode's second effect run.
  const started = useRef(false);

  useEffect(() => {
    document.title = 'Signing out · DealerPass';
    if (started.current) return;
    started.current = true;
    logout().then(
      ({ redirectTo }) => {
        emitAnalyticsEvent('logout');
        loadPage(redirectTo);
      },
      async (error: unknown) => {
        emitAnalyticsEvent('logout');
        console.warn('logout failed', error);
        await postClientLog({
          err: error instanceof Error ? error.message : String(error),
          message: 'logout failed',
          url: window.location.href,
        }).catch(() => undefined);
        navigate('/authlogout', { replace: true });
      },
    );
  }, [navigate]);

  return (
    <div className="page auth-page">
      <h1>Signing out</h1>
      <div className="page-loading" role="status">
        <span className="spinner" aria-hidden="true" />
        <span>Signing you out…</span>
      </div>
    </div>
  );
}
