/**
 * The account record of `GET /api/users/current` (000 §3, minus every secret: DECISIONS R7).
 * Only the fields the web app reads so far are named; the rest are passed through as sent.
 */
export interface ICurrentUser {
  dealerpassUserId: string;
  /** The DealerPass ID this account signs in with; empty for migrated accounts (R6). */
  karId: string | null;
  email: string;
  firstName: string;
  lastName: string;
  dealership: string;
  accountStatus?: string | null;
  accountStatusDetails?: string | null;
  subscriptionStatus?: string | null;
  subscriptionStatusDescription?: string | null;
  subscriptions?: string[];
  /** The DealerPass ID deadline (000 §3). */
  programDate?: string | null;
  [field: string]: unknown;
}
