/**
 * Account statuses and what they imply (000 §4, 001 §3, DECISIONS R4). Status strings are
 * compared case-insensitively, as the specification asks for inactive.
 */

export const ACCOUNT_STATUSES = [
  'active',
  'blocked',
  'inactive',
  'pending cancel',
  'pending reactivation',
  'validating payment',
] as const;
export type TAccountStatus = (typeof ACCOUNT_STATUSES)[number];

/**
 * Each status by name: the server compares and writes statuses through these, never through a
 * string of its own (issue 26; the lint rule in eslint.config.js bans the literals there).
 */
export const ACCOUNT_STATUS = {
  active: 'active',
  blocked: 'blocked',
  inactive: 'inactive',
  pendingCancel: 'pending cancel',
  pendingReactivation: 'pending reactivation',
  validatingPayment: 'validating payment',
} as const satisfies Record<string, TAccountStatus>;

/** R4: complimentary accounts hide Current Balance. */
export const COMPLIMENTARY_DETAIL = 'complimentary';

/**
 * The current user's `accountStatusDetails` (000 §3): the server keeps complimentary as a column
 * of its own (issue 26) and sends it as this detail, which the screens read (`accountFlags`).
 */
export function accountStatusDetailsOf(account: {
  complimentary: boolean;
  accountStatusDetails: string | null;
}): string | null {
  return account.complimentary ? COMPLIMENTARY_DETAIL : account.accountStatusDetails;
}

/** The status fields of the current user (000 §3). */
export interface IAccountStatusInput {
  accountStatus?: string | null;
  subscriptionStatus?: string | null;
  subscriptionStatusDescription?: string | null;
  accountStatusDetails?: string | null;
}

export interface IAccountFlags {
  /** A status exists and is not inactive (000 §4). */
  active: boolean;
  inactive: boolean;
  blocked: boolean;
  pendingCancel: boolean;
  pendingReactivation: boolean;
  validatingPayment: boolean;
  complimentary: boolean;
}

export function normalizeStatus(value: string | null | undefined): string {
  return (value ?? '').trim().toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ');
}

export function isAccountStatus(value: unknown): value is TAccountStatus {
  return typeof value === 'string' && (ACCOUNT_STATUSES as readonly string[]).includes(value);
}

/**
 * The flags every screen and the server read. The status is `accountStatus`, falling back to
 * `subscriptionStatus`; a description naming pending cancel, pending reactivation or blocked
 * also sets that flag (000 §4: "Status descriptions include …").
 */
export function accountFlags(user: IAccountStatusInput | null | undefined): IAccountFlags {
  const status = normalizeStatus(user?.accountStatus ?? user?.subscriptionStatus);
  const description = normalizeStatus(user?.subscriptionStatusDescription);
  const either = (value: TAccountStatus) => status === value || description === value;
  const inactive = status === 'inactive';
  return {
    active: status !== '' && !inactive,
    inactive,
    blocked: either('blocked'),
    pendingCancel: either('pending cancel'),
    pendingReactivation: either('pending reactivation'),
    validatingPayment: either('validating payment'),
    complimentary: normalizeStatus(user?.accountStatusDetails) === COMPLIMENTARY_DETAIL,
  };
}

/** The description the server sends with each status (000 §2 Billing Summary block). */
export const STATUS_DESCRIPTIONS: Record<TAccountStatus, string> = {
  active: 'Active',
  blocked: 'Blocked',
  inactive: 'Inactive',
  'pending cancel': 'Pending Cancel',
  'pending reactivation': 'Pending Reactivation',
  'validating payment': 'Validating Payment',
};
