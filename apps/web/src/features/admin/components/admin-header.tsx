import { useState } from 'react';
import { Link, useLocation } from '../../../lib/router/router.tsx';
import { loadPage } from '../../../lib/full-page-navigation.ts';
import { useToast } from '../../../components/ui/toast.tsx';
import { failureMessage } from '../../../lib/error-text.ts';
import { signOut } from '../api/sign-out.ts';
import { useRoleAllows, useStaffMember } from '../staff-member.tsx';

const ROLE_LABELS = { support: 'Support', billing: 'Billing', admin: 'Admin' } as const;

interface INavItem {
  to: string;
  label: string;
  /** The paths that belong to this section besides `to` and the paths below it. */
  also?: RegExp;
}

/** Support lands on the account search; billing and admin on the overview (issue 29). */
const SUPPORT_NAV: INavItem[] = [
  { to: '/admin', label: 'Accounts', also: /^\/admin\/accounts(\/|$)/ },
  { to: '/admin/promotions', label: 'Promotions' },
  { to: '/admin/prices', label: 'Prices' },
  { to: '/admin/dunning', label: 'Dunning' },
  { to: '/admin/invoices', label: 'Invoices due' },
  { to: '/admin/inbox', label: 'Inbox' },
];

const BILLING_NAV: INavItem[] = [
  { to: '/admin', label: 'Overview' },
  { to: '/admin/accounts', label: 'Accounts' },
  ...SUPPORT_NAV.slice(1),
];

function isCurrent(item: INavItem, pathname: string): boolean {
  const here = pathname.replace(/\/+$/, '').toLowerCase() || '/';
  if (item.to === '/admin') return here === '/admin' || Boolean(item.also?.test(here));
  if (item.to === '/admin/accounts') return here.startsWith('/admin/accounts');
  return here === item.to || here.startsWith(`${item.to}/`);
}

/** Sign out: the server ends the staff session and says where the browser goes next. */
function useSignOut(): { leaving: boolean; onSignOut: () => void } {
  const toast = useToast();
  const [leaving, setLeaving] = useState(false);
  const onSignOut = async () => {
    setLeaving(true);
    try {
      const { redirectTo } = await signOut();
      loadPage(redirectTo || '/admin/login');
    } catch (error) {
      setLeaving(false);
      toast.error(failureMessage(error));
    }
  };
  return { leaving, onSignOut: () => void onSignOut() };
}

function SignOutButton() {
  const { leaving, onSignOut } = useSignOut();
  return (
    <button type="button" className="button button--link" onClick={onSignOut} disabled={leaving}>
      {leaving ? 'Signing out…' : 'Sign out'}
    </button>
  );
}

/** The header of the second-factor step: the console's name, and a way out. */
export function GateHeader({ signedIn }: { signedIn: boolean }) {
  return (
    <header className="admin-header admin-header--gate">
      <div className="admin-header__top">
        <span className="admin-header__brand">
          DealerPass <span className="admin-header__console">staff console</span>
        </span>
        {signedIn ? <SignOutButton /> : null}
      </div>
    </header>
  );
}

/** The console's header: who is signed in with which role, the sections, and Sign out. */
export function AdminHeader() {
  const member = useStaffMember();
  const isAdmin = useRoleAllows('admin');
  const NAV = useRoleAllows('billing') ? BILLING_NAV : SUPPORT_NAV;
  const { pathname } = useLocation();
  const isBilling = useRoleAllows('billing');
  const items = [
    ...NAV,
    ...(isBilling ? [{ to: '/admin/finance', label: 'Finance' }] : []),
    ...(isAdmin ? [{ to: '/admin/staff', label: 'Staff' }] : []),
  ];

  return (
    <header className="admin-header">
      <div className="admin-header__top">
        <Link to="/admin" className="admin-header__brand">
          DealerPass <span className="admin-header__console">staff console</span>
        </Link>
        <p className="admin-header__who">
          <span className="visually-hidden">Signed in as </span>
          <strong data-testid="admin-member-name">{member.name}</strong>
          <span aria-hidden="true"> · </span>
          <span className="visually-hidden">, role: </span>
          <span className="admin-role" data-testid="admin-member-role">
            {ROLE_LABELS[member.role]}
          </span>
        </p>
      </div>
      <nav aria-label="Console" className="admin-nav">
        <ul>
          {items.map((item) => {
            const current = isCurrent(item, pathname);
            return (
              <li key={item.to}>
                <Link
                  to={item.to}
                  className={current ? 'active' : undefined}
                  aria-current={current ? 'page' : undefined}
                >
                  {item.label}
                </Link>
              </li>
            );
          })}
          <li className="admin-nav__sign-out">
            <SignOutButton />
          </li>
        </ul>
      </nav>
    </header>
  );
}
