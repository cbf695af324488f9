import { paidWithText } from '@dealerpass/domain/billing/receipt-text';
import { useId, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { nameOf, type TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import {
  annualInvoiceChangeText,
  CHANGE_TEXTS,
  chargeTodayText,
  monthlyPriceText,
  pendingRemovalsText,
} from '@dealerpass/domain/messages/ui-texts';
import { SUBSCRIPTIONS_REQUIRED_MESSAGE } from '@dealerpass/domain/schemas/signup-subscriptions';
import { sanitizeCodes, toggleCode, type ISelection } from '@dealerpass/domain/selection';
import {
  ZStaffReasonSchema,
  type TAdjustSubscriptionResult,
} from '@dealerpass/domain/admin/account-actions';
import type { TStaffAccountDetail } from '@dealerpass/domain/admin/console-views';
import { SubscriptionCatalogue } from '../../../components/subscription-catalogue.tsx';
import { Button, SubmitButton } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { ErrorSummary, useErrorSummary } from '../../../components/ui/error-summary.tsx';
import { TextAreaField } from '../../../components/ui/fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { failureMessage } from '../../../lib/error-text.ts';
import { usePriceClock } from '../../../lib/use-price-clock.ts';
import { useRequestKey } from '../../../lib/use-request-key.ts';
import { adjustSubscription, useAdjustPreview } from '../api/adjust-subscription.ts';
import { getAccountQueryOptions } from '../api/get-account.ts';
import type { IActionOutcome } from './action-dialog.tsx';
import { businessDate, money } from './format.ts';

export const ADJUST_TEXTS = {
  button: 'Change subscriptions',
  title: 'Change subscriptions for the dealer',
  intro:
    'The dealer’s own change rules apply (R10): additions start now and are charged today, prorated, to the card on file; removals wait for the next bill date.',
  legend: 'Subscriptions',
  confirm: 'Confirm change',
  confirming: 'Changing…',
  noChange: 'Tick or untick a subscription to see what changes.',
  complimentary: 'The account is complimentary: nothing is charged, today or at the next bill.',
  cardRequired:
    'This change is charged today and there is no card on file. The dealer must add a card in Billing Details first.',
  removalsOnly: 'The account is validating payment: subscriptions can only be removed.',
  notChanged: 'The subscriptions were not changed',
  review: 'Review the change',
} as const;

/** "Visa ending in 4242", or null without a card on file. */
function cardText(card: TStaffAccountDetail['profile']['card']): string | null {
  if (!card) return null;
  return paidWithText(card.brand, card.last4);
}

/**
 * What an adjustment came to, as the console says it (issue 28): only a change made is green; a
 * decline says nothing changed and is never a success; an unanswered charge says how it ends.
 */
export function adjustOutcome(
  result: TAdjustSubscriptionResult,
  card: string | null,
): IActionOutcome {
  const { change } = result;
  const removals =
    change.removed.length > 0
      ? ` ${change.removed.map(nameOf).join(', ')} ${change.removed.length > 1 ? 'are' : 'is'} removed on ${businessDate(change.nextBillDate)}.`
      : '';
  if (result.outcome === 'charged') {
    return {
      tone: 'success',
      text: `The subscriptions were changed. ${money(change.chargeTodayCents)} was charged to ${card ?? 'the card on file'}, and the dealer was e-mailed the receipt.${removals}`,
    };
  }
  if (result.outcome === 'applied') {
    return {
      tone: 'success',
      text: `The subscriptions were changed. Nothing was charged.${removals}`,
    };
  }
  if (result.outcome === 'declined') {
    const reason = result.declineReason ? ` (${result.declineReason.replaceAll('_', ' ')})` : '';
    return {
      tone: 'declined',
      text: `The card was declined${reason}. Nothing was charged and the subscriptions were not changed.`,
    };
  }
  return {
    tone: 'pending',
    text: 'The payment gateway did not answer, so the change is not made yet. Try again in a minute to finish it; the card is charged once at most.',
  };
}

/**
 * "Adjust" (issue 28): the support line changes a dealer's selection on their behalf. The dialog
 * shows the catalogue from the account's selection (pending removals unticked, as on the
 * dealer's page), the server's preview of the dealer's own rules (R10), and asks a reason (R12).
 */
export function AdjustSubscriptionButton({
  detail,
  onDone,
}: {
  detail: TStaffAccountDetail;
  onDone: (outcome: IActionOutcome) => void;
}) {
  const [opening, setOpening] = useState(0);
  const [open, setOpen] = useState(false);
  if (!detail.subscription) return null;
  return (
    <>
      <Button
        variant="secondary"
        aria-haspopup="dialog"
        onClick={() => {
          setOpening((count) => count + 1);
          setOpen(true);
        }}
      >
        {ADJUST_TEXTS.button}
      </Button>
      <Dialog open={open} title={ADJUST_TEXTS.title} onClose={() => setOpen(false)}>
        {opening > 0 ? (
          <AdjustForm
            key={opening}
            detail={detail}
            onCancel={() => setOpen(false)}
            onDone={(outcome) => {
              setOpen(false);
              onDone(outcome);
            }}
          />
        ) : null}
      </Dialog>
    </>
  );
}

function AdjustForm({
  detail,
  onCancel,
  onDone,
}: {
  detail: TStaffAccountDetail;
  onCancel: () => void;
  onDone: (outcome: IActionOutcome) => void;
}) {
  const userId = detail.profile.userId;
  const subscription = detail.subscription!;
  const id = useId();
  const reasonId = `${id}-reason`;
  const catalogueId = `${id}-catalogue`;
  const toast = useToast();
  const keys = useRequestKey();
  const summary = useErrorSummary();
  const queryClient = useQueryClient();
  const now = usePriceClock();
  const [selection, setSelection] = useState<ISelection | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  // What runs after the next bill, as on the dealer's page: pending removals unticked.
  const pending = useMemo(() => sanitizeCodes(subscription.pendingRemovals), [subscription]);
  const start = useMemo<ISelection>(() => {
    const codes = sanitizeCodes(subscription.codes).filter((code) => !pending.includes(code));
    return {
      codes,
      autoExtras: sanitizeCodes(subscription.autoExtras).filter((code) => codes.includes(code)),
    };
  }, [subscription, pending]);
  const shown = selection ?? start;
  const codes = shown.codes;
  const preview = useAdjustPreview(userId, codes, codes.length > 0);
  const data = preview.data;
  const allowance = data?.allowance;
  const hasChange =
    data !== undefined &&
    !preview.isPlaceholderData &&
    (data.added.length > 0 || data.removed.join(',') !== pending.join(','));
  const card = cardText(detail.profile.card);

  const toggle = (code: TSubscriptionCode) => {
    const next = toggleCode(shown, code);
    if (allowance === 'removalsOnly' && next.codes.some((c) => !shown.codes.includes(c))) return;
    summary.clear();
    setSelection(next);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy || !hasChange) return;
    summary.clear();
    const checked = ZStaffReasonSchema.safeParse(reason);
    if (!checked.success) {
      const message = checked.error.issues[0]?.message ?? 'Enter a reason.';
      setReasonError(message);
      summary.show(ADJUST_TEXTS.notChanged, [{ message, fieldId: reasonId }]);
      return;
    }
    setReasonError(undefined);
    setBusy(true);
    // Based on the selection this dialog showed: when the dealer or another member changed it
    // since, the server refuses (409) rather than undo their change (R10, decision 035).
    const basedOn = {
      codes: sanitizeCodes(subscription.codes),
      pendingRemovals: pending,
    };
    const content = { codes: [...codes], basedOn, reason: checked.data };
    try {
      const result = await adjustSubscription(userId, {
        ...content,
        requestKey: keys.keyFor(content),
      });
      // An unanswered charge keeps its key: the same request again finishes it.
      if (result.outcome !== 'pending') keys.settle(result);
      const outcome = adjustOutcome(result, card);
      if (outcome.tone === 'success') toast.success(outcome.text);
      else toast.error(outcome.text);
      onDone(outcome);
    } catch (failure) {
      keys.settle(failure);
      const stale =
        failure instanceof ApiError && failure.code === ERROR_CODES.CHANGE_SELECTION_STALE;
      if (stale) {
        // The account is loaded again and the dialog starts from its selection as it is now.
        setSelection(null);
        await queryClient.invalidateQueries({ queryKey: getAccountQueryOptions(userId).queryKey });
      }
      summary.show(stale ? ADJUST_TEXTS.review : ADJUST_TEXTS.notChanged, [
        { message: failureMessage(failure) },
      ]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="admin-action-form admin-adjust">
      <ErrorSummary {...summary.props} />
      <p>{ADJUST_TEXTS.intro}</p>
      {allowance === 'removalsOnly' ? (
        <p className="form-note">{ADJUST_TEXTS.removalsOnly}</p>
      ) : null}
      <div className="admin-adjust__catalogue" data-dialog-initial-focus tabIndex={-1}>
        <SubscriptionCatalogue
          id={catalogueId}
          legend={ADJUST_TEXTS.legend}
          selection={shown}
          onToggle={toggle}
          now={now}
          removalsOnly={allowance === 'removalsOnly'}
          note={(code) =>
            data?.removed.includes(code) ? (
              <span className="change-pending-note"> ({CHANGE_TEXTS.pendingNote})</span>
            ) : null
          }
        />
      </div>
      <section className="admin-adjust__preview" aria-labelledby={`${id}-preview`}>
        <h3 id={`${id}-preview`}>{CHANGE_TEXTS.previewHeading}</h3>
        <div
          aria-live="polite"
          aria-busy={preview.isFetching || undefined}
          data-testid="adjust-preview"
        >
          {codes.length === 0 ? (
            <p role="alert">{SUBSCRIPTIONS_REQUIRED_MESSAGE}</p>
          ) : preview.isError ? (
            <div role="alert">
              <p>{failureMessage(preview.error)}</p>
              <Button variant="secondary" onClick={() => void preview.refetch()}>
                {CHANGE_TEXTS.retry}
              </Button>
            </div>
          ) : !data ? (
            <p role="status">Loading the preview…</p>
          ) : (
            <dl className="admin-adjust__figures">
              <dt>{CHANGE_TEXTS.chargeToday}</dt>
              <dd data-testid="adjust-charge-today">
                {data.complimentary
                  ? `${money(0)} (complimentary)`
                  : chargeTodayText(money(data.chargeTodayCents), data.daysLeft, data.daysInPeriod)}
              </dd>
              {data.chargeTodayCents > 0 && card ? (
                <>
                  <dt>Charged to</dt>
                  <dd>{card}</dd>
                </>
              ) : null}
              {data.additions.length > 0 ? (
                <>
                  <dt>{CHANGE_TEXTS.additionsHeading}</dt>
                  <dd>
                    <ul className="admin-adjust__additions">
                      {data.additions.map((addition) => (
                        <li key={addition.code}>
                          {nameOf(addition.code)}:{' '}
                          {monthlyPriceText(addition.monthlyCents, addition.free)}
                        </li>
                      ))}
                    </ul>
                  </dd>
                </>
              ) : null}
              <dt>{CHANGE_TEXTS.nextBill}</dt>
              <dd>
                {money(data.nextBillCents)} on {businessDate(data.nextBillDate)}
              </dd>
              {data.removed.length > 0 ? (
                <>
                  <dt>{CHANGE_TEXTS.pendingHeading}</dt>
                  <dd>
                    {pendingRemovalsText(businessDate(data.nextBillDate), data.removed.map(nameOf))}
                  </dd>
                </>
              ) : null}
              {data.annualInvoice ? (
                <>
                  <dt>{CHANGE_TEXTS.annualInvoiceHeading}</dt>
                  <dd data-testid="adjust-annual-invoice">
                    {annualInvoiceChangeText(
                      data.annualInvoice.number,
                      money(data.annualInvoice.totalCents),
                      money(data.annualInvoice.newTotalCents),
                    )}
                  </dd>
                </>
              ) : null}
            </dl>
          )}
          {data?.complimentary ? <p className="form-note">{ADJUST_TEXTS.complimentary}</p> : null}
          {data?.cardRequired && hasChange ? (
            <p className="form-note" data-testid="adjust-card-required">
              {ADJUST_TEXTS.cardRequired}
            </p>
          ) : null}
          {data && codes.length > 0 && !hasChange && !preview.isFetching ? (
            <p className="form-note">{ADJUST_TEXTS.noChange}</p>
          ) : null}
        </div>
      </section>
      <TextAreaField
        id={reasonId}
        label="Reason"
        hint="Kept in the audit log."
        required
        rows={3}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        error={reasonError}
      />
      <div className="dialog__footer">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <SubmitButton busy={busy} disabled={!hasChange || data?.cardRequired === true}>
          {busy ? ADJUST_TEXTS.confirming : ADJUST_TEXTS.confirm}
        </SubmitButton>
      </div>
    </form>
  );
}
