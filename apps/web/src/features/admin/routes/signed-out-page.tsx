import { useSearchParams } from '../../../lib/router/router.tsx';
import { useAdminTitle } from '../use-admin-title.ts';

/**
 * Where the staff sign-out ends, and where a refused staff sign-in lands (`?err=sign-in`):
 * shown without a session, so it never starts a sign-in by itself (decision 026).
 */
export default function SignedOutPage() {
  const [params] = useSearchParams();
  const failed = params.get('err') === 'sign-in';
  useAdminTitle(failed ? 'Sign-in failed' : 'Signed out');
  return (
    <div className="admin-page">
      {failed ? (
        <>
          <h1>The sign-in did not succeed</h1>
          <div className="admin-problem" role="alert">
            <p>
              This sign-in is not a DealerPass staff member, or the member is disabled, or the
              sign-in took too long. Ask a DealerPass admin if you should have access.
            </p>
          </div>
        </>
      ) : (
        <>
          <h1>You are signed out</h1>
          <p role="status">Your staff session has ended.</p>
        </>
      )}
      <p>
        <a className="button button--primary" href="/admin/login">
          Sign in to the staff console
        </a>
      </p>
    </div>
  );
}
