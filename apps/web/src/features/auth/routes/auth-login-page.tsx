import { useEffect } from 'react';
import { Link, useLocation, useSearchParams } from '../../../lib/router/router.tsx';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { SESSION_MESSAGES, sessionMessageFor } from '../session-messages.ts';
import '../auth.css';

function isBlockedState(state: unknown): boolean {
  return (
    typeof state === 'object' && state !== null && (state as { blocked?: unknown }).blocked === true
  );
}

/**
 * /authlogin (001 §2, §4): where session failures and blocked accounts land. Signing in is a
 * full navigation to the server's /login, which starts the OpenID Connect flow.
 */
export default function AuthLoginPage() {
  const { supportPhone } = runtimeConfig();
  const location = useLocation();
  const [params] = useSearchParams();
  const blocked = isBlockedState(location.state);
  const sessionMessage = sessionMessageFor(params.get('err'));

  useEffect(() => {
    document.title = 'Sign in · DealerPass';
  }, []);

  return (
    <div className="page auth-page">
      <h1>Sign in</h1>
      {blocked ? (
        <div className="auth-notice auth-notice--danger" data-testid="blocked-notice">
          <p>
            <strong>{SESSION_MESSAGES.blocked}</strong>
          </p>
          <p>
            Please call Customer Support toll free at{' '}
            <a href={`tel:${supportPhone.replace(/[^\d+-]/g, '')}`}>{supportPhone}</a> and we will
            help you sort it out.
          </p>
        </div>
      ) : null}
      {sessionMessage ? (
        <div className="auth-notice auth-notice--warning" data-testid="session-notice">
          <p>{sessionMessage}</p>
        </div>
      ) : null}
      <div className="card auth-card">
        <p>
          Sign in with your DealerPass ID, or with your username if your account was moved from our
          previous system.
        </p>
        <p className="form-actions">
          <a className="button button--primary" href="/login">
            Sign in
          </a>
        </p>
        <p className="auth-form__aside">
          <Link to="/identity/forgot-password">Forgot password?</Link>
        </p>
      </div>
    </div>
  );
}
