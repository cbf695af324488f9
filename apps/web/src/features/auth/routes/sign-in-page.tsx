import { lazy, Suspense, useEffect, useState } from 'react';
import { useParams } from '../../../lib/router/router.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { getInteractionDetails, type IInteractionDetails } from '../api/get-interaction-details.ts';
import { SignInForm } from '../components/sign-in-form.tsx';
import '../auth.css';

// The staff variant is a chunk of its own: a dealer's sign-in page does not load it.
const StaffSignInForm = lazy(() => import('../components/staff-sign-in-form.tsx'));

type TState =
  | { status: 'loading' }
  | { status: 'ready'; details: IInteractionDetails }
  | { status: 'expired' }
  | { status: 'failed' };

/** An unknown, finished or expired interaction: only a fresh start at /login helps. */
function isGone(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.status === 400 || error.status === 404 || error.status === 410)
  );
}

/**
 * The embedded provider's sign-in page at /oidc/interaction/:uid (docs/decisions/009): the
 * provider sends the browser here; the form posts back to the provider's interaction.
 */
export default function SignInPage() {
  const { uid = '' } = useParams();
  const [state, setState] = useState<TState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  // Kept once known: an interaction that expires later still restarts the same sign-in.
  const [staff, setStaff] = useState(false);
  const restart = staff ? '/admin/login' : '/login';
  useEffect(() => {
    document.title = staff ? 'Staff sign-in · DealerPass' : 'Sign in · DealerPass';
  }, [staff]);

  useEffect(() => {
    const controller = new AbortController();
    getInteractionDetails(uid, controller.signal).then(
      (details) => {
        setStaff(details.client === 'staff');
        setState({ status: 'ready', details });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: isGone(error) ? 'expired' : 'failed' });
      },
    );
    return () => controller.abort();
  }, [uid, attempt]);

  return (
    <div className="page auth-page">
      <h1>{staff ? 'DealerPass staff sign-in' : `Sign in to ${runtimeConfig().companyName}`}</h1>
      {state.status === 'loading' ? (
        <div className="page-loading" role="status">
          <span className="spinner" aria-hidden="true" />
          <span>Loading sign-in…</span>
        </div>
      ) : null}
      {state.status === 'expired' ? (
        <div className="auth-notice auth-notice--warning" role="alert">
          <p>This sign-in page has expired or is no longer valid.</p>
          <p>
            <a href={restart}>Start signing in again</a>
          </p>
        </div>
      ) : null}
      {state.status === 'failed' ? (
        <div className="auth-notice auth-notice--warning" role="alert">
          <p>The sign-in page could not be loaded. Please try again.</p>
          <p className="auth-notice__actions">
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                setState({ status: 'loading' });
                setAttempt((n) => n + 1);
              }}
            >
              Try again
            </button>
            <a href={restart}>Start signing in again</a>
          </p>
        </div>
      ) : null}
      {state.status === 'ready' && staff ? (
        <Suspense
          fallback={
            <div className="page-loading" role="status">
              <span className="spinner" aria-hidden="true" />
              <span>Loading sign-in…</span>
            </div>
          }
        >
          <StaffSignInForm
            uid={uid}
            loginHint={state.details.loginHint}
            onExpired={() => setState({ status: 'expired' })}
          />
        </Suspense>
      ) : null}
      {state.status === 'ready' && !staff ? (
        <SignInForm
          uid={uid}
          loginHint={state.details.loginHint}
          onExpired={() => setState({ status: 'expired' })}
        />
      ) : null}
    </div>
  );
}
