import { useEffect } from 'react';
import { Link, useLocation } from '../../../lib/router/router.tsx';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { CARFAX_TEXTS } from '@dealerpass/domain/integrations/carfax';
import { CarfaxConnection } from '../components/carfax-connection.tsx';
import { ErrorPanel } from '../components/error-panel.tsx';
import { carfaxFailureFrom, carfaxNoticeFrom } from '../carfax-navigation-state.ts';
import type { IIntegrationPageProps } from '../integration-user.ts';
import '../integrations.css';

/**
 * /account/status/carfax (000 §2): the Carfax login status, with any error the callback passed
 * in navigation state (a failed token request in the error panel, 000 §8).
 */
export default function CarfaxStatusPage(_props: IIntegrationPageProps) {
  const location = useLocation();
  const failure = carfaxFailureFrom(location.state);
  const returnTo = (location.state as { returnTo?: unknown } | null)?.returnTo;
  const back =
    typeof returnTo === 'string' &&
    returnTo.startsWith('/account/') &&
    returnTo !== ACCOUNT_ROUTES.carfaxStatus
      ? returnTo
      : null;
  useEffect(() => {
    document.title = 'Carfax login status · DealerPass';
  }, []);
  return (
    <div className="page account-page integrations-page">
      <h1>{CARFAX_TEXTS.statusHeading}</h1>
      {failure ? (
        <ErrorPanel message={failure.message}>
          {failure.detail ? <p>{failure.detail}</p> : null}
        </ErrorPanel>
      ) : null}
      <CarfaxConnection notice={carfaxNoticeFrom(location.state)} />
      <p>
        {back ? (
          <Link to={back}>Back to where you were</Link>
        ) : (
          <Link to={ACCOUNT_ROUTES.carfaxIntegrations}>About the Carfax integration</Link>
        )}
      </p>
    </div>
  );
}
