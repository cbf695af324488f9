/**
 * How the account status moves (DECISIONS R4) as a pure function, so the server's billing jobs
 * and routes share one table.
 */
import { ACCOUNT_STATUSES, isAccountStatus, type TAccountStatus } from './status.ts';

export type TAccountEvent =
  /** Cancel inside the 10-day trial: refund the sign-up charge, access ends now. */
  | 'cancelInTrial'
  /** Cancel an account that has no subscription: nothing is billed, so access ends now. */
  | 'cancelUnbilled'
  /** Cancel after the trial: access continues until the next bill date. */
  | 'cancel'
  /** The next bill date arrived for a pending-cancel account. */
  | 'billDateReached'
  /** REACTIVATE while pending cancel: no charge. */
  | 'reactivate'
  /** Reactivation charge sent for an inactive account. */
  | 'reactivationCharging'
  | 'reactivationSucceeded'
  | 'reactivationFailed'
  /** A pending reactivation found without its period and card: nothing to charge. */
  | 'reactivationAbandoned'
  | 'renewalSucceeded'
  | 'renewalFailed'
  /**
   * A renewal charge's answer arrives after the status moved on while it was in flight (the
   * user cancelled, a chargeback arrived): the answer still decides, as for a billed account.
   */
  | 'renewalSucceededAfterStatusChange'
  | 'renewalFailedAfterStatusChange'
  /** The last retry (5 days after the failure) failed too. */
  | 'finalRetryFailed'
  /**
   * R14: the check that paid an annual period came back unpaid: the amount is owed and R4's
   * retries charge the card on file, as after a failed renewal (a pending cancellation included).
   */
  | 'checkReturned'
  | 'chargeback'
  | 'block'
  /** Staff lift a block (R12): the account returns to the standing it had when blocked. */
  | 'unblock'
  | 'unblockToInactive'
  | 'unblockToPendingCancel'
  | 'unblockToValidatingPayment';

type TTransitions = Readonly<Partial<Record<TAccountStatus, TAccountStatus>>>;

const EVERY_STATUS_TO = (to: TAccountStatus): TTransitions =>
  Object.fromEntries(ACCOUNT_STATUSES.map((status) => [status, to]));

/**
 * The whole state machine: per event, the statuses it applies to and where each goes. A status
 * an event does not list cannot take that event.
 */
export const ACCOUNT_TRANSITIONS: Readonly<Record<TAccountEvent, TTransitions>> = {
  cancelInTrial: { active: 'inactive', 'validating payment': 'inactive' },
  cancelUnbilled: { active: 'inactive', 'validating payment': 'inactive' },
  cancel: { active: 'pending cancel', 'validating payment': 'pending cancel' },
  billDateReached: { 'pending cancel': 'inactive' },
  reactivate: { 'pending cancel': 'active' },
  reactivationCharging: { inactive: 'pending reactivation' },
  reactivationSucceeded: { 'pending reactivation': 'active' },
  reactivationFailed: { 'pending reactivation': 'inactive' },
  reactivationAbandoned: { 'pending reactivation': 'inactive' },
  renewalSucceeded: { active: 'active', 'validating payment': 'active' },
  renewalFailed: { active: 'validating payment', 'validating payment': 'validating payment' },
  // A blocked account is never charged, so no answer of a charge applies to it.
  renewalSucceededAfterStatusChange: {
    'pending cancel': 'active',
    'pending reactivation': 'active',
    inactive: 'active',
  },
  renewalFailedAfterStatusChange: {
    'pending cancel': 'validating payment',
    'pending reactivation': 'validating payment',
    inactive: 'validating payment',
  },
  finalRetryFailed: {
    'validating payment': 'inactive',
    'pending cancel': 'inactive',
    'pending reactivation': 'inactive',
    inactive: 'inactive',
  },
  checkReturned: {
    active: 'validating payment',
    'validating payment': 'validating payment',
    'pending cancel': 'validating payment',
  },
  chargeback: { ...EVERY_STATUS_TO('inactive'), blocked: 'blocked' },
  // Blocking a blocked account is no change, and refused as one.
  block: Object.fromEntries(
    ACCOUNT_STATUSES.filter((status) => status !== 'blocked').map((status) => [status, 'blocked']),
  ),
  unblock: { blocked: 'active' },
  unblockToInactive: { blocked: 'inactive' },
  unblockToPendingCancel: { blocked: 'pending cancel' },
  unblockToValidatingPayment: { blocked: 'validating payment' },
};

/** Where every account starts: its sign-up is paid (or free), so it is active (R4). */
export const STATUS_AT_SIGN_UP: TAccountStatus = 'active';

export const ACCOUNT_EVENTS = Object.keys(ACCOUNT_TRANSITIONS) as TAccountEvent[];

/**
 * The next status, or null when the event does not apply to the current status (the server
 * answers that with an error instead of guessing).
 */
export function nextAccountStatus(
  status: TAccountStatus,
  event: TAccountEvent,
): TAccountStatus | null {
  const table = ACCOUNT_TRANSITIONS[event];
  // Own keys only: a status read from the database is a string, and "toString" is no status.
  return Object.hasOwn(table, status) ? (table[status] ?? null) : null;
}

/**
 * The event a renewal charge's answer is for an account in `status`: the plain outcome while
 * the account is billed, the after-a-change one when the status moved on during the charge.
 */
export function renewalOutcomeEvent(
  status: string,
  outcome: 'succeeded' | 'failed',
): TAccountEvent {
  if (isAccountStatus(status) && isBilled(status))
    return outcome === 'succeeded' ? 'renewalSucceeded' : 'renewalFailed';
  return outcome === 'succeeded'
    ? 'renewalSucceededAfterStatusChange'
    : 'renewalFailedAfterStatusChange';
}

/**
 * The event that lifts a block (R12): back to the status the account had when it was blocked, so
 * an unblock never gives an inactive or unpaid account access it did not have. A charge that was
 * in flight at the block is over (a blocked account is never charged): pending reactivation
 * returns to inactive. An account blocked before statuses were recorded returns to active.
 */
export function unblockEventFor(statusBeforeBlock: string | null): TAccountEvent {
  switch (statusBeforeBlock) {
    case 'inactive':
    case 'pending reactivation':
      return 'unblockToInactive';
    case 'pending cancel':
      return 'unblockToPendingCancel';
    case 'validating payment':
      return 'unblockToValidatingPayment';
    default:
      return 'unblock';
  }
}

/** Whether the account may use the product (R4: validating payment keeps access). */
export function hasAccess(status: TAccountStatus): boolean {
  return status !== 'inactive' && status !== 'blocked';
}

/** Whether the account is charged on its bill dates (R4: pending cancel is not). */
export function isBilled(status: TAccountStatus): boolean {
  return status === 'active' || status === 'validating payment';
}

/**
 * Whether an account in `status` can take `event`: the state machine answers, so a service never
 * keeps its own list of the statuses an action applies to (issue 26: cancel's list did).
 */
export function canTake(status: string, event: TAccountEvent): boolean {
  return isAccountStatus(status) && nextAccountStatus(status, event) !== null;
}

/**
 * The statuses the billing run picks up when the bill date has come: the billed ones renew, a
 * pending cancel ends (R4: access continues until the next bill date). A pending reactivation is
 * picked up only once its charge's lease has run out (`PENDING_REACTIVATION`).
 */
export const BILLING_DUE_STATUSES: readonly TAccountStatus[] = [
  'active',
  'pending cancel',
  'validating payment',
];

/** The status whose reactivation charge is in flight (R4), resumed by the run when abandoned. */
export const PENDING_REACTIVATION: TAccountStatus = 'pending reactivation';

/**
 * Whether the account still holds a subscription that may renew at a bill date (price changes
 * count it, R11): every status but inactive. Which of these is actually billed at a given date is
 * `isBilledAtChange`'s question (billing/price-changes).
 */
export const RENEWING_STATUSES: readonly TAccountStatus[] = ACCOUNT_STATUSES.filter(
  (status) => status !== 'inactive',
);

export function isRenewing(status: string): boolean {
  return (RENEWING_STATUSES as readonly string[]).includes(status);
}

/**
 * Whether an active account is complimentary and so has its period waived instead of charged
 * (R4, R12 billing): only an active account is made complimentary.
 */
export function isWaived(status: string, complimentary: boolean): boolean {
  return complimentary && status === 'active';
}
