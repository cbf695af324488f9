import { useEffect } from 'react';
import { Link } from '../../../lib/router/router.tsx';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { accountFlags } from '@dealerpass/domain/account/status';
import { SUBSCRIPTIONS_TEXTS, pendingCancelNoticeOf } from '@dealerpass/domain/messages/ui-texts';
import { useCurrentUser } from '../current-user.tsx';
import '../account.css';

/**
 * /account/subscriptions/cancel/confirmation (000 §2): what a cancellation means for the account;
 * an account that has not cancelled is told so.
 */
export default function CancelConfirmationPage() {
  const { user } = useCurrentUser();
  const flags = accountFlags(user);
  useEffect(() => {
    document.title = 'Cancellation confirmation · DealerPass';
  }, []);
  return (
    <div className="page account-page">
      <h1>Cancellation confirmation</h1>
      <section className="card">
        {flags.pendingCancel ? (
          <>
            <p>{SUBSCRIPTIONS_TEXTS.cancelled}</p>
            <p>{pendingCancelNoticeOf(user)}</p>
          </>
        ) : (
          <p>Your subscription is not cancelled.</p>
        )}
        <p>
          <Link to={ACCOUNT_ROUTES.subscriptions}>Back to Subscriptions</Link>
        </p>
      </section>
    </div>
  );
}
