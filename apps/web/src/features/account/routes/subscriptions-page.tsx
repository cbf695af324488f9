import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from '../../../lib/router/router.tsx';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { subscriptionsPageView } from '@dealerpass/domain/account/billing-view';
import { accountFlags } from '@dealerpass/domain/account/status';
import {
  CHANGE_TEXTS,
  SUBSCRIPTIONS_TEXTS,
  pendingCancelNoticeOf,
} from '@dealerpass/domain/messages/ui-texts';
import { PendingRemovals } from '../components/pending-removals.tsx';
import { SubscriptionList } from '../components/subscription-list.tsx';
import { useCancelling } from '../cancelling.tsx';
import { useCurrentUser } from '../current-user.tsx';
import '../account.css';

/**
 * /account/subscriptions (000 §2, §4): what the account holds, and the Cancel Subscription link
 * (active, not pending cancel), the cancelled message (pending cancel) or the reactivation
 * guidance pointing to billing (inactive).
 */
export default function SubscriptionsPage() {
  const { user } = useCurrentUser();
  const { setCancelling } = useCancelling();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const flags = accountFlags(user);
  const view = subscriptionsPageView(flags);
  // R10: active and validating-payment accounts change here; pending cancel reactivates first.
  const mayChange =
    flags.active && !flags.pendingCancel && !flags.pendingReactivation && !flags.complimentary;
  const justCancelled = params.get('cancelled') === 'true';

  useEffect(() => {
    document.title = 'Subscriptions · DealerPass';
  }, []);

  return (
    <div className="page account-page">
      <h1>Subscriptions</h1>
      {view === 'cancelled' || justCancelled ? (
        <div
          className="account-notice"
          role={justCancelled ? 'status' : undefined}
          data-testid="cancelled-message"
        >
          <p>{SUBSCRIPTIONS_TEXTS.cancelled}</p>
          {view === 'cancelled' ? <p>{pendingCancelNoticeOf(user)}</p> : null}
        </div>
      ) : null}
      {view === 'reactivationGuidance' ? (
        <p className="account-notice" data-testid="reactivation-guidance">
          {SUBSCRIPTIONS_TEXTS.reactivationGuidance}{' '}
          <Link to={ACCOUNT_ROUTES.billing}>Go to Billing Details</Link>
        </p>
      ) : null}
      <section className="card" aria-label="Your subscriptions">
        <SubscriptionList />
      </section>
      {mayChange ? (
        <>
          <PendingRemovals />
          <p>
            <Link to={ACCOUNT_ROUTES.subscriptionsChange}>{CHANGE_TEXTS.link}</Link>
          </p>
        </>
      ) : null}
      {view === 'cancelLink' ? (
        <p>
          <Link
            to={ACCOUNT_ROUTES.cancel}
            className="danger-link"
            onClick={(event) => {
              event.preventDefault();
              setCancelling(true);
              navigate(ACCOUNT_ROUTES.cancel);
            }}
          >
            {SUBSCRIPTIONS_TEXTS.cancelLink}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
