import { useEffect, useMemo, useState } from 'react';
import { Link } from '../../../lib/router/router.tsx';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { accountFlags } from '@dealerpass/domain/account/status';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { CHANGE_TEXTS } from '@dealerpass/domain/messages/ui-texts';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { toggleCode, type ISelection } from '@dealerpass/domain/selection';
import type {
  ISubscriptionChangeResult,
  ISubscriptionSelectionState,
} from '@dealerpass/domain/schemas/subscription-change';
import { SubscriptionCatalogue } from '../../../components/subscription-catalogue.tsx';
import { Button, SubmitButton } from '../../../components/ui/button.tsx';
import { ErrorSummary, useErrorSummary } from '../../../components/ui/error-summary.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { failureMessage } from '../../../lib/error-text.ts';
import { usePriceClock } from '../../../lib/use-price-clock.ts';
import { useRequestKey } from '../../../lib/use-request-key.ts';
import { useSubmit } from '../../../lib/use-submit.ts';
import {
  useChangePreview,
  useChangeSubscription,
  useSelectionState,
} from '../api/subscription-change.ts';
import { ChangeAppliedNotice, ChangeBlockedNotice } from '../components/change-notices.tsx';
import { ChangePreview } from '../components/change-preview.tsx';
import { useCurrentUser } from '../current-user.tsx';
import '../account.css';

const CATALOGUE_ID = 'change-catalogue';

/** The selection that runs after the next bill: the one in force without its pending removals. */
function selectionAfterRemovals(state: ISubscriptionSelectionState | undefined): ISelection | null {
  if (!state) return null;
  const { current, codes: pending } = state;
  const codes = current.codes.filter((code) => !pending.includes(code));
  return { codes, autoExtras: current.autoExtras.filter((code) => codes.includes(code)) };
}

/**
 * The page's selection and the server's preview of it: what the dealer ticked (or the selection
 * after its pending removals, before any tick), whether it changes anything, and what R10 allows.
 */
function useChangeDraft(enabled: boolean) {
  const state = useSelectionState();
  const [selection, setSelection] = useState<ISelection | null>(null);
  const start = useMemo(() => selectionAfterRemovals(state.data), [state.data]);
  const shown = selection ?? start;
  const codes = shown?.codes ?? [];
  // Nothing left ticked: the rule is shown, nothing is asked of the server (cancelling is how
  // every subscription stops).
  const noneLeft = shown !== null && codes.length === 0;
  const preview = useChangePreview(codes, shown !== null && !noneLeft && enabled);
  const data = preview.data;
  const hasChange =
    data !== undefined &&
    !preview.isPlaceholderData &&
    (data.added.length > 0 || data.removed.join(',') !== (state.data?.codes ?? []).join(','));
  const allowance = data?.allowance;
  // The untouched selection refused: this account may not change now, and the page says so
  // instead of offering the catalogue.
  const notAllowed =
    selection === null &&
    preview.error instanceof ApiError &&
    preview.error.code === ERROR_CODES.CHANGE_NOT_ALLOWED;
  /** The next selection after a tick, or null when R10 ignores it (validating payment only removes). */
  const toggled = (code: TSubscriptionCode): ISelection | null => {
    if (!shown) return null;
    const next = toggleCode(shown, code);
    if (allowance === 'removalsOnly' && next.codes.some((c) => !shown.codes.includes(c))) {
      return null;
    }
    return next;
  };
  // The change is computed against the selection this page showed (R10): when another window
  // changed it since, the server refuses rather than undo that change.
  const basedOn = {
    codes: state.data?.current.codes ?? [],
    pendingRemovals: state.data?.codes ?? [],
  };
  return {
    state,
    preview,
    shown,
    codes,
    noneLeft,
    hasChange,
    allowance,
    notAllowed,
    basedOn,
    toggled,
    setSelection,
  };
}

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
  const draft = useChangeDraft(blockedBy === null);
  const { state, preview, shown, codes, noneLeft, hasChange, allowance } = draft;
  const now = usePriceClock();
  const summary = useErrorSummary();
  const [applied, setApplied] = useState<ISubscriptionChangeResult | null>(null);
  const change = useChangeSubscription();
  // One key per selection until it is answered (R10, decision 031): a double click or a resend
  // of the same selection is the same change; another selection, or the next confirm after an
  // answer, is a new change with a new key.
  const keys = useRequestKey();
  const send = useSubmit({ title: 'Your subscriptions were not changed', summary, keys });

  useEffect(() => {
    document.title = 'Change subscriptions · DealerPass';
  }, []);

  const toggle = (code: TSubscriptionCode) => {
    const next = draft.toggled(code);
    if (!next) return;
    setApplied(null);
    summary.clear();
    draft.setSelection(next);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!hasChange || noneLeft || change.isPending) return;
    const { basedOn } = draft;
    const outcome = await send(() =>
      change.mutateAsync({
        codes: [...codes],
        idempotencyKey: keys.keyFor({ codes, basedOn }),
        basedOn,
      }),
    );
    if (outcome.ok) {
      setApplied(outcome.value);
      draft.setSelection(null);
      await refetch().catch(() => undefined);
      return;
    }
    if (
      outcome.error instanceof ApiError &&
      outcome.error.code === ERROR_CODES.CHANGE_SELECTION_STALE
    ) {
      // The page starts again from the account's selection as it is now, for the dealer to
      // review; the ticks they made are not sent again without a look. The summary says so.
      draft.setSelection(null);
      summary.show(CHANGE_TEXTS.reviewHeading, outcome.items);
      await state.refetch();
    }
  };

  return (
    <div className="page account-page">
      <h1>{CHANGE_TEXTS.heading}</h1>
      <p>
        <Link to={ACCOUNT_ROUTES.subscriptions}>Back to Subscriptions</Link>
      </p>
      {applied ? <ChangeAppliedNotice applied={applied} /> : null}
      <ErrorSummary {...summary.props} />
      {blockedBy !== null ? (
        <ChangeBlockedNotice by={blockedBy} />
      ) : state.isPending ? (
        <p role="status">Loading your subscriptions…</p>
      ) : draft.notAllowed ? (
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
          {allowance === 'removalsOnly' ? (
            <p className="account-notice">{CHANGE_TEXTS.removalsOnly}</p>
          ) : null}
          <div className="signup-subscriptions">
            <SubscriptionCatalogue
              id={CATALOGUE_ID}
              legend={CHANGE_TEXTS.legend}
              selection={shown}
              onToggle={toggle}
              now={now}
              note={(code) =>
                preview.data?.removed.includes(code) ? (
                  <span className="change-pending-note"> ({CHANGE_TEXTS.pendingNote})</span>
                ) : null
              }
              removalsOnly={allowance === 'removalsOnly'}
            />
            <section className="card change-preview" aria-labelledby="change-preview-heading">
              <h2 id="change-preview-heading">{CHANGE_TEXTS.previewHeading}</h2>
              <ChangePreview preview={preview} noneLeft={noneLeft} hasChange={hasChange} />
              <div className="form-actions">
                <SubmitButton
                  busy={change.isPending}
                  disabled={!hasChange || noneLeft || preview.data?.cardRequired === true}
                >
                  {change.isPending ? CHANGE_TEXTS.confirming : CHANGE_TEXTS.confirm}
                </SubmitButton>
              </div>
            </section>
          </div>
        </form>
      )}
    </div>
  );
}
