import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { NavLink, useLocation } from '../../../lib/router/router.tsx';
import { INACTIVE_NAV_ALERT, accountNavLinks } from '@dealerpass/domain/account/account-routes';
import { accountFlags } from '@dealerpass/domain/account/status';
import { useToast } from '../../../components/ui/toast.tsx';
import { useCurrentUser } from '../current-user.tsx';

/**
 * The account navigation (000 §2): Account Information, Billing Details, Subscriptions, the Carfax
 * and AutoCheck links (code held and account active) and Logout. For an inactive account,
 * Account Information and Subscriptions show an alert instead of navigating.
 *
 * On narrow screens the list folds behind a disclosure button that names the current page, so the
 * banner and the page itself stay above the fold (issue 14); from 48rem the list is always shown
 * and the button is not rendered visibly (CSS).
 */
export function AccountNav() {
  const { user } = useCurrentUser();
  const toast = useToast();
  const location = useLocation();
  const listId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const flags = accountFlags(user);
  const links = accountNavLinks(flags, user.subscriptions ?? []);
  // Escape in the open menu folds it and returns to its button.
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    setOpen(false);
    toggle.current?.focus();
  };
  const current = links.find((link) => location.pathname.startsWith(link.to));
  return (
    <nav aria-label="Account" className={open ? 'account-nav account-nav--open' : 'account-nav'}>
      <button
        ref={toggle}
        type="button"
        className="account-nav__toggle"
        aria-expanded={open}
        aria-controls={listId}
        onKeyDown={closeOnEscape}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="account-nav__toggle-label">Account menu</span>
        {current ? (
          <span className="account-nav__current">
            <span className="visually-hidden">, current page: </span>
            {current.label}
          </span>
        ) : null}
        <span className="account-nav__chevron" aria-hidden="true" />
      </button>
      <ul id={listId}>
        {links.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              onKeyDown={closeOnEscape}
              onClick={(event) => {
                setOpen(false);
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
