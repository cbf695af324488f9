import { useEffect, useRef } from 'react';
import { Link } from '../../../lib/router/router.tsx';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { CHANGE_TEXTS, complimentaryChangeText } from '@dealerpass/domain/messages/ui-texts';
import { formatCurrency } from '@dealerpass/domain/money';
import type { ISubscriptionChangeResult } from '@dealerpass/domain/schemas/subscription-change';
import { runtimeConfig } from '../../../lib/runtime-config.ts';

/**
 * A change the server applied (R10). It sits at the top of the page, far above the button on a
 * phone: it takes the focus, so it is scrolled into view and read out, as the error summary does
 * for a failure.
 */
export function ChangeAppliedNotice({ applied }: { applied: ISubscriptionChangeResult }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [applied]);
  return (
    <div
      className="account-notice account-notice--success"
      role="status"
      data-testid="change-applied"
      tabIndex={-1}
      ref={ref}
    >
      <p>{CHANGE_TEXTS.applied}</p>
      {applied.chargeTodayCents > 0 ? (
        <p>
          {CHANGE_TEXTS.chargeToday}: {formatCurrency(applied.chargeTodayCents)}.{' '}
          <Link to={ACCOUNT_ROUTES.billing}>See the receipt in Billing Details</Link>
        </p>
      ) : null}
    </div>
  );
}

/** Why this account cannot change its selection now, and where to go instead (R10). */
export function ChangeBlockedNotice({ by }: { by: 'pendingCancel' | 'complimentary' }) {
  return (
    <div className="account-notice" data-testid="change-not-allowed">
      {by === 'pendingCancel' ? (
        <>
          <p>{CHANGE_TEXTS.pendingCancel}</p>
          <p>
            <Link to={ACCOUNT_ROUTES.billing}>{CHANGE_TEXTS.reactivateLink}</Link>
          </p>
        </>
      ) : (
        <p>{complimentaryChangeText({ phone: runtimeConfig().supportPhone })}</p>
      )}
    </div>
  );
}
