import { useEffect } from 'react';
import { useNavigate } from '../../../lib/router/router.tsx';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { CARFAX_TEXTS } from '@dealerpass/domain/integrations/carfax';
import type { ICarfaxNavigationState } from '../carfax-navigation-state.ts';
import type { IIntegrationPageProps } from '../integration-user.ts';

/** /account/carfax/logout, where Carfax's logout returns (000 §2): on to the status page. */
export default function CarfaxLogoutPage(_props: IIntegrationPageProps) {
  const navigate = useNavigate();
  useEffect(() => {
    const state: ICarfaxNavigationState = { carfaxNotice: CARFAX_TEXTS.signedOut };
    navigate(ACCOUNT_ROUTES.carfaxStatus, { replace: true, state });
  }, [navigate]);
  return (
    <div className="page-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{CARFAX_TEXTS.signingOut}</span>
    </div>
  );
}
