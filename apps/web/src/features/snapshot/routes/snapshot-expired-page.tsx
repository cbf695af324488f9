import { useEffect } from 'react';
import { Link } from '../../../lib/router/router.tsx';
import { SNAPSHOT_EXPIRED } from '@dealerpass/domain/messages/ui-texts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';

/** Where an expired shared snapshot link lands (001 §2 Expired link). */
export default function SnapshotExpiredPage() {
  const { supportPhone } = runtimeConfig();

  useEffect(() => {
    document.title = 'Snapshot link expired · DealerPass';
  }, []);

  return (
    <div className="page">
      <h1>{SNAPSHOT_EXPIRED.heading}</h1>
      <p>{SNAPSHOT_EXPIRED.message}</p>
      <p>
        Need a hand? Our customer support team is happy to help: call us toll free at{' '}
        <a href={`tel:${supportPhone.replace(/[^\d+-]/g, '')}`}>{supportPhone}</a>.
      </p>
      <p>
        <Link to="/home">Go to the DealerPass home page</Link>
      </p>
    </div>
  );
}
