import { billingSummaryView } from '@dealerpass/domain/account/billing-view';
import { accountFlags } from '@dealerpass/domain/account/status';
import { notOperationalMessage } from '@dealerpass/domain/messages/ui-texts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { useCurrentUser } from '../current-user.tsx';

/**
 * 001 §4, R4: while a payment is being validated, every account page says the account is not fully
 * operational, not only Billing, so the user learns it on the page they land on. The account
 * layout shows it, once, above each page.
 */
export function NotOperationalNotice() {
  const { user } = useCurrentUser();
  if (!billingSummaryView(accountFlags(user)).showNotOperational) return null;
  return (
    <p className="account-notice" data-testid="not-operational">
      {notOperationalMessage({ phone: runtimeConfig().supportPhone })}
    </p>
  );
}
