import { useEffect, useRef, useState } from 'react';
import { Link } from '../../../lib/router/router.tsx';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { useToast } from '../../../components/ui/toast.tsx';
import { KarIdConnectForm } from '../components/karid-connect-form.tsx';
import { useCurrentUser } from '../current-user.tsx';
import '../account.css';

/**
 * /account/karid/connect (000 §2, DECISIONS R6): a migrated account without a DealerPass ID
 * creates one or links an existing one; an account that has one is told so.
 */
export default function KarIdConnectPage() {
  const { user, refetch } = useCurrentUser();
  const toast = useToast();
  // Connected during this visit: shown as linked even if the refetch that follows fails.
  const [connectedNow, setConnectedNow] = useState(false);
  const linkedHeading = useRef<HTMLHeadingElement>(null);
  const linked = Boolean(user.karId) || connectedNow;

  useEffect(() => {
    document.title = 'DealerPass ID · DealerPass';
  }, []);

  useEffect(() => {
    if (connectedNow) linkedHeading.current?.focus();
  }, [connectedNow]);

  const onConnected = async () => {
    await refetch().catch(() => undefined);
    toast.success();
    setConnectedNow(true);
  };

  return (
    <div className="page account-page">
      <h1>Your DealerPass ID</h1>
      {linked ? (
        <section className="card" aria-labelledby="karid-linked">
          <h2 id="karid-linked" ref={linkedHeading} tabIndex={-1}>
            Your DealerPass ID is connected
          </h2>
          <p>From now on, sign in with your DealerPass ID: its email address and password.</p>
          <p>
            <Link to={ACCOUNT_ROUTES.root}>Back to your account</Link>
          </p>
        </section>
      ) : (
        <>
          <p className="lead">
            Your account was moved from our previous system and still signs in with a username.
            Connect a DealerPass ID to keep access: create a new one, or link one you already have.
          </p>
          <KarIdConnectForm defaultEmail={user.email} onConnected={onConnected} />
        </>
      )}
    </div>
  );
}
