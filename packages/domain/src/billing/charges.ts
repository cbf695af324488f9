/**
 * What the server charges (DECISIONS R3, R4): every amount comes from the price table at the
 * moment of the charge, never from the browser's total.
 */
import type { TSubscriptionCode } from '../catalogue.ts';
import type { TCents } from '../money.ts';
import { quote, type TPriceTable } from '../prices.ts';
import { isWithinTrial } from './renewal-calendar.ts';

/** A renewal or the sign-up charge: the quote's total at the charge instant. */
export function subscriptionChargeCents(
  selection: readonly TSubscriptionCode[],
  at: Date,
  table: TPriceTable,
): TCents {
  return quote(selection, at, table).totalCents;
}

/**
 * Reactivating an inactive account (R4): the current monthly price of the previous selections
 * plus any balance owed. A credit (negative balance) lowers the charge, never below zero.
 */
export function reactivationChargeCents(
  selection: readonly TSubscriptionCode[],
  at: Date,
  balanceCents: TCents,
  table: TPriceTable,
): TCents {
  return Math.max(0, subscriptionChargeCents(selection, at, table) + balanceCents);
}

/**
 * Which cancellation applies (R4): inside the 10-day trial after the sign-up charge the charge
 * is refunded and access ends now; otherwise the account runs to its next bill date.
 */
export function cancellationKind(
  signupChargeAt: Date | null | undefined,
  now: Date,
): 'cancelInTrial' | 'cancel' {
  return isWithinTrial(signupChargeAt, now) ? 'cancelInTrial' : 'cancel';
}
