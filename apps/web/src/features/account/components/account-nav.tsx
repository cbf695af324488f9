import { NavLink } from 'react-router';
import { INACTIVE_NAV_ALERT, accountNavLinks } from '@dealerpass/domain/account/account-routes';
import { accountFlags } from '@dealerpass/domain/account/status';
import { useToast } from '../../../components/ui/toast.tsx';
import { useCurrentUser } from '../current-user.tsx';

/**
 * The account navigation (000 §2): Account Information, Billing Details, Subscriptions, the Carfax
 * and AutoCheck links (code held and account active) and Logout. For an inactive account,
 * Account Information and Subscriptions show an alert instead of navigating.
 */
export function AccountNav() {
  const { user } = useCurrentUser();
  const toast = useToast();
  const flags = accountFlags(user);
  const links = accountNavLinks(flags, user.subscriptions ?? []);
  return (
    <nav aria-label="Account" className="account-nav">
      <ul>
        {links.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              onClick={(event) => {
                if (link.alertWhenInactive && flags.inactive) {
                  event.preventDefault();
                  toast.alert(INACTIVE_NAV_ALERT);
                }
              }}
            >
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
