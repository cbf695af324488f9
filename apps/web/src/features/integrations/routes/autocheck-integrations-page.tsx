import { useEffect } from 'react';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { AutoCheckForm } from '../components/autocheck-form.tsx';
import type { IIntegrationPageProps } from '../integration-user.ts';
import '../integrations.css';

/** /account/autoCheckIntegrations (000 §2): the AutoCheck integration form. */
export default function AutoCheckIntegrationsPage({ user, refetch }: IIntegrationPageProps) {
  useEffect(() => {
    document.title = 'AutoCheck integration · DealerPass';
  }, []);
  const sandbox = runtimeConfig().sandboxes.includes('autocheck');
  return (
    <div className="page account-page integrations-page">
      <h1>AutoCheck integration</h1>
      <p className="lead">
        Enter your AutoCheck ID and password to open AutoCheck vehicle history reports from
        DealerPass. We check them with AutoCheck before saving and keep the password encrypted.
      </p>
      {sandbox ? (
        <p className="integration-notice">
          This is the AutoCheck sandbox: use one of the test IDs and passwords listed in the README.
        </p>
      ) : null}
      <AutoCheckForm user={user} onSaved={refetch} />
    </div>
  );
}
