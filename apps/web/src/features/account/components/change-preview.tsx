import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from '../../../lib/router/router.tsx';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { nameOf } from '@dealerpass/domain/catalogue';
import {
  annualInvoiceChangeText,
  CHANGE_TEXTS,
  chargeTodayText,
  monthlyPriceText,
  pendingRemovalsText,
} from '@dealerpass/domain/messages/ui-texts';
import { formatCurrency } from '@dealerpass/domain/money';
import type { ISubscriptionChangePreview } from '@dealerpass/domain/schemas/subscription-change';
import { SUBSCRIPTIONS_REQUIRED_MESSAGE } from '@dealerpass/domain/schemas/signup-subscriptions';
import { formatCalendarDate, parseIsoDate } from '@dealerpass/domain/time/calendar-date';
import { Button } from '../../../components/ui/button.tsx';
import { failureMessage } from '../../../lib/error-text.ts';

export const changeDateText = (iso: string | null) =>
  formatCalendarDate(iso ? parseIsoDate(iso) : null);

interface ChangePreviewProps {
  preview: UseQueryResult<ISubscriptionChangePreview>;
  /** Nothing is left ticked: the rule is said here, nothing is asked of the server. */
  noneLeft: boolean;
  hasChange: boolean;
}

/**
 * The server's live preview of a change (R10): what is charged today (prorated), what is added,
 * the next bill and its date, the removals that wait for it; or why there is none.
 */
export function ChangePreview({ preview, noneLeft, hasChange }: ChangePreviewProps) {
  const data = preview.data;
  return (
    <div
      aria-live="polite"
      aria-busy={preview.isFetching || undefined}
      data-testid="change-preview"
    >
      {noneLeft ? (
        <p role="alert" data-testid="none-left">
          {SUBSCRIPTIONS_REQUIRED_MESSAGE}
        </p>
      ) : preview.isError ? (
        <div role="alert">
          <p>{failureMessage(preview.error)}</p>
          <Button variant="secondary" onClick={() => void preview.refetch()}>
            {CHANGE_TEXTS.retry}
          </Button>
        </div>
      ) : !data ? (
        <p>Loading…</p>
      ) : (
        <PreviewFigures preview={data} />
      )}
      {data?.cardRequired && hasChange ? (
        <p className="account-notice" data-testid="card-required">
          {CHANGE_TEXTS.cardRequired}{' '}
          <Link to={ACCOUNT_ROUTES.billing}>{CHANGE_TEXTS.addCardLink}</Link>
        </p>
      ) : null}
      {data && !noneLeft && !hasChange && !preview.isFetching ? (
        <p className="form-note">{CHANGE_TEXTS.noChange}</p>
      ) : null}
    </div>
  );
}

function PreviewFigures({ preview }: { preview: ISubscriptionChangePreview }) {
  return (
    <dl className="change-preview__list">
      <dt>{CHANGE_TEXTS.chargeToday}</dt>
      <dd data-testid="charge-today">
        {chargeTodayText(
          formatCurrency(preview.chargeTodayCents),
          preview.daysLeft,
          preview.daysInPeriod,
        )}
      </dd>
      {preview.additions.length > 0 ? (
        <>
          <dt>{CHANGE_TEXTS.additionsHeading}</dt>
          <dd data-testid="additions">
            <ul className="change-preview__additions">
              {preview.additions.map((addition) => (
                <li key={addition.code}>
                  {nameOf(addition.code)}: {monthlyPriceText(addition.monthlyCents, addition.free)}
                </li>
              ))}
            </ul>
          </dd>
        </>
      ) : null}
      <dt>{CHANGE_TEXTS.nextBill}</dt>
      <dd data-testid="next-bill">
        {formatCurrency(preview.nextBillCents)} on {changeDateText(preview.nextBillDate)}
      </dd>
      {preview.removed.length > 0 ? (
        <>
          <dt>{CHANGE_TEXTS.pendingHeading}</dt>
          <dd data-testid="removals-pending">
            {pendingRemovalsText(changeDateText(preview.nextBillDate), preview.removed.map(nameOf))}
          </dd>
        </>
      ) : null}
      {preview.annualInvoice ? (
        <>
          <dt>{CHANGE_TEXTS.annualInvoiceHeading}</dt>
          <dd data-testid="annual-invoice-change">
            {annualInvoiceChangeText(
              preview.annualInvoice.number,
              formatCurrency(preview.annualInvoice.totalCents),
              formatCurrency(preview.annualInvoice.newTotalCents),
            )}
          </dd>
        </>
      ) : null}
    </dl>
  );
}
