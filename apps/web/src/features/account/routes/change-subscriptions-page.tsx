import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from '../../../lib/router/router.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { accountFlags } from '@dealerpass/domain/account/status';
import { nameOf, type TSubscriptionCode } from '@dealerpass/domain/catalogue';
import {
  CHANGE_TEXTS,
  chargeTodayText,
  complimentaryChangeText,
  monthlyPriceText,
  pendingRemovalsText,
} from '@dealerpass/domain/messages/ui-texts';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { SUBSCRIPTIONS_REQUIRED_MESSAGE } from '@dealerpass/domain/schemas/signup-subscriptions';
import { formatCurrency } from '@dealerpass/domain/money';
import { toggleCode, type ISelection } from '@dealerpass/domain/selection';
import { formatCalendarDate, parseIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { ISubscriptionChangeResult } from '@dealerpass/domain/schemas/subscription-change';
import { SubscriptionCatalogue } from '../../../components/subscription-catalogue.tsx';
import { Button, SubmitButton } from '../../../components/ui/button.tsx';
import { ErrorSummary, useErrorSummary } from '../../../components/ui/error-summary.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { failureMessage } from '../../../lib/error-text.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { usePriceClock } from '../../../lib/use-price-clock.ts';
import { useRequestKey } from '../../../lib/use-request-key.ts';
import { invalidatePaymentWrites } from '../api/get-payment-history.ts';
import {
  changeSubscription,
  getSelectionStateQueryOptions,
  useChangePreview,
  useSelectionState,
} from '../api/subscription-change.ts';
import { useCurrentUser } from '../current-user.tsx';
import '../account.css';

const CATALOGUE_ID = 'change-catalogue';
const dateText = (iso: string | null) => formatCalendarDate(iso ? parseIsoDate(iso) : null);

/**
 * /account/subscriptions/change (DECISIONS R10): the catalogue with the current selection and the
 * sign-up's rules, and the server's live preview (what is charged today, prorated; the next bill
 * and its date; the removals that wait for it). Confirming sends one idempotency key per selection,
 * so a double click or a repeat applies the change once.
 */
export default function ChangeSubscriptionsPage() {
  const { user, refetch } = useCurrentUser();
  const flags = accountFlags(user);
  // R10: a pending-cancel account reactivates first; a complimentary one is changed by support.
  const blockedBy = flags.pendingCancel
    ? 'pendingCancel'
    : flags.complimentary
      ? 'complimentary'
      : null;
  const queryClient = useQueryClient();
  const state = useSelectionState();
  const now = usePriceClock();
  const summary = useErrorSummary();
  const [selection, setSelection] = useState<ISelection | null>(null);
  const [busy, setBusy] = useState(false);
  const [applied, setApplied] = useState<ISubscriptionChangeResult | null>(null);

  useEffect(() => {
    document.title = 'Change subscriptions · DealerPass';
  }, []);

  // The page starts from what runs after the next bill: the selection without its pending removals.
  const start = useMemo<ISelection | null>(() => {
    if (!state.data) return null;
    const { current, codes: pending } = state.data;
    const codes = current.codes.filter((code) => !pending.includes(code));
    return { codes, autoExtras: current.autoExtras.filter((code) => codes.includes(code)) };
  }, [state.data]);
  const shown = selection ?? start;
  const codes = shown?.codes ?? [];
  // Nothing left ticked: the rule is shown here, nothing is asked of the server (cancelling is how
  // every subscription stops).
  const noneLeft = shown !== null && codes.length === 0;
  const preview = useChangePreview(codes, shown !== null && !noneLeft && blockedBy === null);
  // One key per selection until it is answered (R10, decision 031): a double click or a resend
  // of the same selection is the same change; another selection, or the next confirm after an
  // answer, is a new change with a new key.
  const keys = useRequestKey();

  const previewData = preview.data;
  const hasChange =
    previewData !== undefined &&
    !preview.isPlaceholderData &&
    (previewData.added.length > 0 ||
      previewData.removed.join(',') !== (state.data?.codes ?? []).join(','));

  const allowance = previewData?.allowance;
  // The untouched selection refused: this account may not change now (R10: pending cancel,
  // complimentary), so the page says so instead of offering the catalogue.
  const notAllowed =
    selection === null &&
    preview.error instanceof ApiError &&
    preview.error.code === ERROR_CODES.CHANGE_NOT_ALLOWED;

  const toggle = (code: TSubscriptionCode) => {
    if (!shown) return;
    const next = toggleCode(shown, code);
    // R10: a validating-payment account only removes; ticking an item changes nothing.
    if (allowance === 'removalsOnly' && next.codes.some((c) => !shown.codes.includes(c))) return;
    setApplied(null);
    summary.clear();
    setSelection(next);
  };

  // The confirmation sits at the top of the page, far above the button on a phone: it takes the
  // focus, so it is scrolled into view and read out, as the error summary does for a failure.
  const appliedNotice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (applied) appliedNotice.current?.focus();
  }, [applied]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!hasChange || noneLeft || busy) return;
    summary.clear();
    setBusy(true);
    // The change is computed against the selection this page showed (R10): when another window
    // changed it since, the server refuses rather than undo that change.
    const basedOn = {
      codes: state.data?.current.codes ?? [],
      pendingRemovals: state.data?.codes ?? [],
    };
    try {
      const result = await changeSubscription({
        codes: [...codes],
        idempotencyKey: keys.keyFor({ codes, basedOn }),
        basedOn,
      });
      keys.settle(result);
      setApplied(result);
      setSelection(null);
      await queryClient.invalidateQueries({ queryKey: getSelectionStateQueryOptions().queryKey });
      // An addition's prorated charge is a payment: Payment History shows it without a reload.
      await invalidatePaymentWrites(queryClient);
      await refetch().catch(() => undefined);
    } catch (failure) {
      keys.settle(failure);
      const stale =
        failure instanceof ApiError && failure.code === ERROR_CODES.CHANGE_SELECTION_STALE;
      if (stale) {
        // The page starts again from the account's selection as it is now, for the dealer to
        // review; the ticks they made are not sent again without a look.
        setSelection(null);
        await queryClient.invalidateQueries({
          queryKey: getSelectionStateQueryOptions().queryKey,
        });
      }
      summary.show(stale ? CHANGE_TEXTS.reviewHeading : 'Your subscriptions were not changed', [
        { message: failureMessage(failure) },
      ]);
    } finally {
      setBusy(false);
    }
  };

  const pendingNote = (code: TSubscriptionCode) =>
    previewData?.removed.includes(code) ? (
      <span className="change-pending-note"> ({CHANGE_TEXTS.pendingNote})</span>
    ) : null;

  return (
    <div className="page account-page">
      <h1>{CHANGE_TEXTS.heading}</h1>
      <p>
        <Link to={ACCOUNT_ROUTES.subscriptions}>Back to Subscriptions</Link>
      </p>
      {applied ? (
        <div
          className="account-notice account-notice--success"
          role="status"
          data-testid="change-applied"
          tabIndex={-1}
          ref={appliedNotice}
        >
          <p>{CHANGE_TEXTS.applied}</p>
          {applied.chargeTodayCents > 0 ? (
            <p>
              {CHANGE_TEXTS.chargeToday}: {formatCurrency(applied.chargeTodayCents)}.{' '}
              <Link to={ACCOUNT_ROUTES.billing}>See the receipt in Billing Details</Link>
            </p>
          ) : null}
        </div>
      ) : null}
      <ErrorSummary {...summary.props} />
      {blockedBy === 'pendingCancel' ? (
        <div className="account-notice" data-testid="change-not-allowed">
          <p>{CHANGE_TEXTS.pendingCancel}</p>
          <p>
            <Link to={ACCOUNT_ROUTES.billing}>{CHANGE_TEXTS.reactivateLink}</Link>
          </p>
        </div>
      ) : blockedBy === 'complimentary' ? (
        <div className="account-notice" data-testid="change-not-allowed">
          <p>{complimentaryChangeText({ phone: runtimeConfig().supportPhone })}</p>
        </div>
      ) : state.isPending ? (
        <p role="status">Loading your subscriptions…</p>
      ) : notAllowed ? (
        <div className="account-notice" role="status" data-testid="change-not-allowed">
          <p>{failureMessage(preview.error)}</p>
        </div>
      ) : state.isError || !shown ? (
        <div className="account-notice" role="alert">
          <p>{failureMessage(state.error)}</p>
          <Button variant="secondary" onClick={() => void state.refetch()}>
            {CHANGE_TEXTS.retry}
          </Button>
        </div>
      ) : (
        <form onSubmit={submit} noValidate aria-labelledby="change-preview-heading">
          {previewData?.allowance === 'removalsOnly' ? (
            <p className="account-notice">{CHANGE_TEXTS.removalsOnly}</p>
          ) : null}
          <div className="signup-subscriptions">
            <SubscriptionCatalogue
              id={CATALOGUE_ID}
              legend={CHANGE_TEXTS.legend}
              selection={shown}
              onToggle={toggle}
              now={now}
              note={pendingNote}
              removalsOnly={allowance === 'removalsOnly'}
            />
            <section className="card change-preview" aria-labelledby="change-preview-heading">
              <h2 id="change-preview-heading">{CHANGE_TEXTS.previewHeading}</h2>
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
                ) : !previewData ? (
                  <p>Loading…</p>
                ) : (
                  <dl className="change-preview__list">
                    <dt>{CHANGE_TEXTS.chargeToday}</dt>
                    <dd data-testid="charge-today">
                      {chargeTodayText(
                        formatCurrency(previewData.chargeTodayCents),
                        previewData.daysLeft,
                        previewData.daysInPeriod,
                      )}
                    </dd>
                    {previewData.additions.length > 0 ? (
                      <>
                        <dt>{CHANGE_TEXTS.additionsHeading}</dt>
                        <dd data-testid="additions">
                          <ul className="change-preview__additions">
                            {previewData.additions.map((addition) => (
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
                    <dd data-testid="next-bill">
                      {formatCurrency(previewData.nextBillCents)} on{' '}
                      {dateText(previewData.nextBillDate)}
                    </dd>
                    {previewData.removed.length > 0 ? (
                      <>
                        <dt>{CHANGE_TEXTS.pendingHeading}</dt>
                        <dd data-testid="removals-pending">
                          {pendingRemovalsText(
                            dateText(previewData.nextBillDate),
                            previewData.removed.map(nameOf),
                          )}
                        </dd>
                      </>
                    ) : null}
                  </dl>
                )}
                {previewData?.cardRequired && hasChange ? (
                  <p className="account-notice" data-testid="card-required">
                    {CHANGE_TEXTS.cardRequired}{' '}
                    <Link to={ACCOUNT_ROUTES.billing}>{CHANGE_TEXTS.addCardLink}</Link>
                  </p>
                ) : null}
                {previewData && !noneLeft && !hasChange && !preview.isFetching ? (
                  <p className="form-note">{CHANGE_TEXTS.noChange}</p>
                ) : null}
              </div>
              <div className="form-actions">
                <SubmitButton
                  busy={busy}
                  disabled={!hasChange || noneLeft || previewData?.cardRequired === true}
                >
                  {busy ? CHANGE_TEXTS.confirming : CHANGE_TEXTS.confirm}
                </SubmitButton>
              </div>
            </section>
          </div>
        </form>
      )}
    </div>
  );
}
