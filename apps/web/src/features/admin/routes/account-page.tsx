import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '../../../lib/router/router.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { auditCsvUrl } from '../api/account-file-urls.ts';
import { getAccountQueryOptions, useAccount } from '../api/get-account.ts';
import { AccountActions } from '../components/account-actions.tsx';
import type { IActionOutcome } from '../components/action-dialog.tsx';
import { useActionOutcome } from '../components/action-outcome.tsx';
import {
  EmailsSection,
  SessionsSection,
  TimelineSection,
} from '../components/account-activity.tsx';
import { InvoicesSection } from '../components/account-invoices.tsx';
import { BalanceSection, DeclinesSection, PaymentsSection } from '../components/account-money.tsx';
import {
  IntegrationsSection,
  ProfileSection,
  StatusSection,
  SubscriptionSection,
} from '../components/account-overview.tsx';
import { LoadFailed, Loading } from '../../../components/ui/query-state.tsx';
import { StatusLabel } from '../components/status-label.tsx';
import { useAdminTitle } from '../use-admin-title.ts';

/**
 * One account (/admin/accounts/:userId): everything staff may see of it (R7, R12) and the actions
 * of the member's role. An action reloads the account and its timeline.
 */
export default function AccountPage() {
  const { userId = '' } = useParams();
  const queryClient = useQueryClient();
  const query = useAccount(userId);
  const name = query.data
    ? `${query.data.profile.firstName} ${query.data.profile.lastName}`.trim() ||
      query.data.profile.email
    : 'Account';
  useAdminTitle(name);

  const outcome = useActionOutcome();

  const reload = (done?: IActionOutcome) => {
    if (done) outcome.report(done);
    void queryClient.invalidateQueries({ queryKey: getAccountQueryOptions(userId).queryKey });
  };

  if (query.isPending) {
    return (
      <div className="admin-page">
        <h1>Account</h1>
        <Loading text="Loading the account…" />
      </div>
    );
  }
  if (query.isError) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="admin-page">
        <h1>Account</h1>
        {missing ? (
          <div className="admin-problem" role="alert">
            <p>There is no account with this id.</p>
            <Link to="/admin/accounts">Search accounts</Link>
          </div>
        ) : (
          <LoadFailed
            text="The account could not be loaded."
            error={query.error}
            onRetry={() => void query.refetch()}
          />
        )}
      </div>
    );
  }

  const detail = query.data;
  return (
    <div className="admin-page">
      <p className="admin-breadcrumb">
        <Link to="/admin/accounts">Accounts</Link>
      </p>
      <div className="admin-title">
        <h1>{name}</h1>
        <StatusLabel
          status={detail.status.accountStatus}
          details={detail.status.accountStatusDetails}
        />
      </div>
      <p className="admin-subtitle">
        {detail.profile.dealership} · {detail.profile.email}
      </p>
      {outcome.message}
      <AccountActions detail={detail} onChanged={reload} />
      <div className="admin-grid">
        <ProfileSection profile={detail.profile} />
        <StatusSection status={detail.status} />
      </div>
      <SubscriptionSection subscription={detail.subscription} changes={detail.changes} />
      <InvoicesSection detail={detail} onChanged={reload} />
      <PaymentsSection
        userId={userId}
        payments={detail.payments}
        refunds={detail.refunds}
        onChanged={reload}
      />
      <BalanceSection balance={detail.balance} />
      <div className="admin-grid">
        <DeclinesSection declines={detail.declines} retries={detail.retries} />
        <IntegrationsSection integrations={detail.integrations} />
      </div>
      <SessionsSection sessions={detail.sessions} />
      <EmailsSection emails={detail.emails} />
      <TimelineSection
        userId={userId}
        actions={
          <a className="button button--secondary" href={auditCsvUrl(userId)} download>
            Download audit log (CSV)
          </a>
        }
      />
    </div>
  );
}
