/**
 * How the account status moves (DECISIONS R4) as a pure function, so the server's billing jobs
 * and routes share one table.
 */
import type { TAccountStatus } from './status.ts';

export type TAccountEvent =
  /** Cancel inside the 10-day trial: refund the sign-up charge, access ends now. */
  | 'cancelInTrial'
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
  | 'renewalSucceeded'
  | 'renewalFailed'
  /** The last retry (5 days after the failure) failed too. */
  | 'finalRetryFailed'
  | 'chargeback'
  | 'block'
  | 'unblock';

/**
 * The next status, or null when the event does not apply to the current status (the server
 * answers that with an error instead of guessing).
 */
export function nextAccountStatus(
  status: TAccountStatus,
  event: TAccountEvent,
): TAccountStatus | null {
  switch (event) {
    case 'cancelInTrial':
      return status === 'active' || status === 'validating payment' ? 'inactive' : null;
    case 'cancel':
      return status === 'active' || status === 'validating payment' ? 'pending cancel' : null;
    case 'billDateReached':
      return status === 'pending cancel' ? 'inactive' : null;
    case 'reactivate':
      return status === 'pending cancel' ? 'active' : null;
    case 'reactivationCharging':
      return status === 'inactive' ? 'pending reactivation' : null;
    case 'reactivationSucceeded':
      return status === 'pending reactivation' ? 'active' : null;
    case 'reactivationFailed':
      return status === 'pending reactivation' ? 'inactive' : null;
    case 'renewalSucceeded':
      return status === 'active' || status === 'validating payment' ? 'active' : null;
    case 'renewalFailed':
      return status === 'active' || status === 'validating payment' ? 'validating payment' : null;
    case 'finalRetryFailed':
      return status === 'validating payment' ? 'inactive' : null;
    case 'chargeback':
      return status === 'blocked' ? 'blocked' : 'inactive';
    case 'block':
      return 'blocked';
    case 'unblock':
      return status === 'blocked' ? 'active' : null;
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
