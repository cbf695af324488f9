import { Navigate, Outlet, useLocation } from '../../../lib/router/router.tsx';
import { accountRouteAccess } from '@dealerpass/domain/account/account-routes';
import { accountFlags } from '@dealerpass/domain/account/status';
import { useCancelling } from '../cancelling.tsx';
import { useCurrentUser } from '../current-user.tsx';

/**
 * The account area's route guard (000 §2, §6): wraps every /account route and applies the
 * domain's access rule to the current path: inactive accounts reach only billing (and the
 * DealerPass ID page), unknown sub-paths go to the profile, the cancel page needs a started
 * cancellation, the Carfax routes need CF and the AutoCheck route AC. Routes nested inside it
 * (the integration pages too) are guarded without any code of their own.
 */
export function AccountRouteGuard() {
  const { user } = useCurrentUser();
  const { cancelling } = useCancelling();
  const location = useLocation();
  const decision = accountRouteAccess(location.pathname, {
    flags: accountFlags(user),
    subscriptions: user.subscriptions ?? [],
    cancelling,
  });
  if (!decision.allowed) {
    return <Navigate to={decision.redirectTo} replace state={decision.state} />;
  }
  return <Outlet />;
}
