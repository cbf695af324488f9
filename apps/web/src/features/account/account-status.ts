import {
  STATUS_DESCRIPTIONS,
  isAccountStatus,
  normalizeStatus,
} from '@dealerpass/domain/account/status';
import type { ICurrentUser } from './current-user-types.ts';

/** The status as the user reads it: the server's description, else the status's own (000 §2). */
export function statusDescriptionOf(user: ICurrentUser): string {
  if (user.subscriptionStatusDescription) return user.subscriptionStatusDescription;
  const status = normalizeStatus(user.accountStatus ?? user.subscriptionStatus);
  if (isAccountStatus(status)) return STATUS_DESCRIPTIONS[status];
  return user.accountStatus ?? 'Unknown';
}
