import type { ComponentType } from 'react';
import { Navigate, useLocation } from '../lib/router/router.tsx';
import { accountRouteAccess } from '@dealerpass/domain/account/account-routes';
import { accountFlags } from '@dealerpass/domain/account/status';
import {
  canUseIntegration,
  type TIntegrationCode,
} from '@dealerpass/domain/integrations/integration-access';
import { useCurrentUser, type ICurrentUser } from '../features/account/current-user.tsx';
import type {
  IIntegrationPageProps,
  IIntegrationUser,
} from '../features/integrations/integration-user.ts';

/** The part of the current user the integration pages read. */
function integrationUser(user: ICurrentUser): IIntegrationUser {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    accountStatus: text(user.accountStatus),
    subscriptionStatus: text(user.subscriptionStatus),
    subscriptionStatusDescription: text(user.subscriptionStatusDescription),
    accountStatusDetails: text(user.accountStatusDetails),
    subscriptions: Array.isArray(user.subscriptions) ? user.subscriptions : [],
    autoCheckId: text(user.autoCheckId),
    autoCheckEnabled: user.autoCheckEnabled === true,
    autoCheckAutoPurchase: user.autoCheckAutoPurchase === true,
    autoCheckPasswdSet: user.autoCheckPasswdSet === true,
  };
}

/**
 * The guard of the integration pages (000 §2, §6; issue 8): an active account holding the code
 * (CF or AC) sees the page, with the signed-in user handed in; any other account goes where the
 * account routes send it (billing when inactive, the profile without the code, /authlogin when
 * blocked). The server applies the same rule to every integration call.
 */
export default function IntegrationRoute({
  code,
  page: Page,
}: {
  code: TIntegrationCode;
  page: ComponentType<IIntegrationPageProps>;
}) {
  const { user: current, refetch } = useCurrentUser();
  const location = useLocation();
  const user = integrationUser(current);
  if (canUseIntegration(user, code)) return <Page user={user} refetch={refetch} />;
  const decision = accountRouteAccess(location.pathname, {
    flags: accountFlags(user),
    subscriptions: user.subscriptions,
  });
  if (decision.allowed) return <Navigate to="/account/profile" replace />;
  return <Navigate to={decision.redirectTo} replace state={decision.state} />;
}
