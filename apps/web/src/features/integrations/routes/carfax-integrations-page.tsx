import { useEffect } from 'react';
import { useLocation } from '../../../lib/router/router.tsx';
import { CARFAX_TEXTS } from '@dealerpass/domain/integrations/carfax';
import { CarfaxConnection } from '../components/carfax-connection.tsx';
import { carfaxNoticeFrom } from '../carfax-navigation-state.ts';
import type { IIntegrationPageProps } from '../integration-user.ts';
import '../integrations.css';

/** /account/carFaxIntegrations (000 §2): what the Carfax integration does, and its connection. */
export default function CarfaxIntegrationsPage(_props: IIntegrationPageProps) {
  const location = useLocation();
  useEffect(() => {
    document.title = 'Carfax integration · DealerPass';
  }, []);
  return (
    <div className="page account-page integrations-page">
      <h1>{CARFAX_TEXTS.integrationsHeading}</h1>
      <p className="lead">{CARFAX_TEXTS.intro}</p>
      <CarfaxConnection notice={carfaxNoticeFrom(location.state)} />
    </div>
  );
}
