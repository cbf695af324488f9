import { useEffect } from 'react';
import { Link } from 'react-router';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { accountFlags } from '@dealerpass/domain/account/status';
import { notOperationalMessage } from '@dealerpass/domain/messages/ui-texts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { statusDescriptionOf } from '../account-status.ts';
import { useCurrentUser } from '../current-user.tsx';
import '../account.css';

/** /account for now: a welcome and the account's state; the pages of 000 §2 come with issue 7. */
export default function AccountHomePage() {
  const { user } = useCurrentUser();
  const flags = accountFlags(user);

  useEffect(() => {
    document.title = 'Your account · DealerPass';
  }, []);

  return (
    <div className="page account-page">
      <h1>Welcome, {user.firstName}</h1>
      {flags.validatingPayment ? (
        <p className="account-notice">
          {notOperationalMessage({ phone: runtimeConfig().supportPhone })}
        </p>
      ) : null}
      <dl className="account-facts card">
        <div>
          <dt>Dealership</dt>
          <dd>{user.dealership}</dd>
        </div>
        <div>
          <dt>Account status</dt>
          <dd>{statusDescriptionOf(user)}</dd>
        </div>
        <div>
          <dt>DealerPass ID</dt>
          <dd>
            {user.karId ? (
              'Linked'
            ) : (
              <>
                Not linked —{' '}
                <Link to={ACCOUNT_ROUTES.karIdConnect}>connect your DealerPass ID</Link>
              </>
            )}
          </dd>
        </div>
      </dl>
    </div>
  );
}
