/**
 * Which account pages an account may open and where it goes otherwise (000 §2, §6).
 */
import type { IAccountFlags } from './status.ts';

export const ACCOUNT_ROUTES = {
  root: '/account',
  profile: '/account/profile',
  billing: '/account/billing',
  subscriptions: '/account/subscriptions',
  /** R10: changing the selection (pending-cancel and complimentary accounts are refused by the server). */
  subscriptionsChange: '/account/subscriptions/change',
  cancel: '/account/subscriptions/cancel',
  cancelConfirmation: '/account/subscriptions/cancel/confirmation',
  carfaxIntegrations: '/account/carFaxIntegrations',
  carfaxStatus: '/account/status/carfax',
  carfaxLogin: '/account/carfax/login',
  carfaxLogout: '/account/carfax/logout',
  autoCheckIntegrations: '/account/autoCheckIntegrations',
  karIdConnect: '/account/karid/connect',
} as const;
export type TAccountRoute = (typeof ACCOUNT_ROUTES)[keyof typeof ACCOUNT_ROUTES];

/** 000 §2, 001 §4: a blocked description goes here with `blocked: true` in navigation state. */
export const BLOCKED_REDIRECT = '/authlogin';

const CARFAX_ROUTES: readonly string[] = [
  ACCOUNT_ROUTES.carfaxIntegrations,
  ACCOUNT_ROUTES.carfaxStatus,
  ACCOUNT_ROUTES.carfaxLogin,
  ACCOUNT_ROUTES.carfaxLogout,
];

const KNOWN_ROUTES: ReadonlySet<string> = new Set(Object.values(ACCOUNT_ROUTES));

export interface IRouteAccessInput {
  flags: IAccountFlags;
  subscriptions: readonly string[];
  /** The cancel page is reachable only after the user started cancelling (000 §2). */
  cancelling?: boolean;
}

export type TRouteDecision =
  { allowed: true } | { allowed: false; redirectTo: string; state?: { blocked: true } };

function trimPath(path: string): string {
  const clean = path.split(/[?#]/)[0] ?? '';
  return clean.length > 1 ? clean.replace(/\/+$/, '') : clean;
}

/** The access decision for an account path (000 §2 route table, §6). */
export function accountRouteAccess(path: string, input: IRouteAccessInput): TRouteDecision {
  const { flags, subscriptions } = input;
  const route = trimPath(path);
  if (flags.blocked)
    return { allowed: false, redirectTo: BLOCKED_REDIRECT, state: { blocked: true } };
  if (route === ACCOUNT_ROUTES.root || !KNOWN_ROUTES.has(route)) {
    return { allowed: false, redirectTo: ACCOUNT_ROUTES.profile };
  }
  if (route === ACCOUNT_ROUTES.billing || route === ACCOUNT_ROUTES.karIdConnect) {
    return { allowed: true };
  }
  if (!flags.active) return { allowed: false, redirectTo: ACCOUNT_ROUTES.billing };
  if (CARFAX_ROUTES.includes(route) && !subscriptions.includes('CF')) {
    return { allowed: false, redirectTo: ACCOUNT_ROUTES.profile };
  }
  if (route === ACCOUNT_ROUTES.autoCheckIntegrations && !subscriptions.includes('AC')) {
    return { allowed: false, redirectTo: ACCOUNT_ROUTES.profile };
  }
  if (route === ACCOUNT_ROUTES.cancel && !input.cancelling) {
    return { allowed: false, redirectTo: ACCOUNT_ROUTES.subscriptions };
  }
  return { allowed: true };
}

export interface IAccountNavLink {
  label: string;
  to: string;
  /** 000 §2: for inactive accounts these links show an alert instead of navigating. */
  alertWhenInactive: boolean;
}

/** 000 §2: the navigation; integration links need their code and an active account. */
export function accountNavLinks(
  flags: IAccountFlags,
  subscriptions: readonly string[],
): IAccountNavLink[] {
  const links: IAccountNavLink[] = [
    { label: 'Account Information', to: ACCOUNT_ROUTES.profile, alertWhenInactive: true },
    { label: 'Billing Details', to: ACCOUNT_ROUTES.billing, alertWhenInactive: false },
    { label: 'Subscriptions', to: ACCOUNT_ROUTES.subscriptions, alertWhenInactive: true },
  ];
  if (flags.active && subscriptions.includes('CF')) {
    links.push({ label: 'Carfax', to: ACCOUNT_ROUTES.carfaxStatus, alertWhenInactive: false });
  }
  if (flags.active && subscriptions.includes('AC')) {
    links.push({
      label: 'AutoCheck',
      to: ACCOUNT_ROUTES.autoCheckIntegrations,
      alertWhenInactive: false,
    });
  }
  links.push({ label: 'Logout', to: '/logout', alertWhenInactive: false });
  return links;
}

/** The alert for inactive accounts (000 §2 leaves the text open). */
export const INACTIVE_NAV_ALERT =
  'Your account is no longer active. Please re-enter your billing details to reactivate it.';

/** Why the server refuses an account call (docs/decisions/016): each has its own error code. */
export type TAccountApiRefusal = 'blocked' | 'inactive' | 'not-held';

export type TAccountApiDecision =
  { allowed: true } | { allowed: false; refusal: TAccountApiRefusal };

/**
 * The server's side of `accountRouteAccess`: an API call belongs to the account page that makes
 * it, and is allowed exactly when that page is (a request to cancel counts as the cancel page
 * being open). `activeOnly` narrows a page that an inactive account may open to the calls it
 * may not make there (000 §4: an inactive account's Billing only reactivates).
 */
export function accountApiAccess(
  page: TAccountRoute,
  input: Omit<IRouteAccessInput, 'cancelling'> & { activeOnly?: boolean },
): TAccountApiDecision {
  const decision = accountRouteAccess(page, { ...input, cancelling: true });
  if (!decision.allowed) {
    if (decision.state?.blocked) return { allowed: false, refusal: 'blocked' };
    return {
      allowed: false,
      refusal: decision.redirectTo === ACCOUNT_ROUTES.billing ? 'inactive' : 'not-held',
    };
  }
  if (input.activeOnly && !input.flags.active) return { allowed: false, refusal: 'inactive' };
  return { allowed: true };
}
