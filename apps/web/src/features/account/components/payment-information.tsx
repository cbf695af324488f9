import { Suspense, useEffect, useRef, useState } from 'react';
import { cardArea } from '@dealerpass/domain/account/billing-view';
import { accountFlags } from '@dealerpass/domain/account/status';
import { cardBrandName } from '@dealerpass/domain/billing/receipt-text';
import {
  BILLING_TEXTS,
  inactiveReactivationMessage,
  pendingCancelNoticeOf,
} from '@dealerpass/domain/messages/ui-texts';
import { maskCardNumber } from '@dealerpass/domain/validation/card';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { lazyPage } from '../../../lib/router/router.tsx';
import { useRequestKey } from '../../../lib/use-request-key.ts';
import { useSubmit } from '../../../lib/use-submit.ts';
import { reactivateAccount, removePaymentProfile } from '../api/payment-profile.ts';
import { useCurrentUser, type ICurrentUser } from '../current-user.tsx';

// The billing form (its schema, zod and the form library) is loaded when it is shown or about to
// be: the billing page paints without it (docs/decisions/027).
const BillingForm = lazyPage(() =>
  import('./billing-form.tsx').then((module) => ({ default: module.BillingForm })),
);
const preloadForm = () => void BillingForm.preload().catch(() => undefined);

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function cardOf(user: ICurrentUser) {
  const number = text(user.creditCardNumber);
  const type = text(user.creditCardType);
  const mmyy = text(user.creditCardExpiration);
  return {
    present: number !== '',
    type: type ? cardBrandName(type) : '',
    lastDigits: number.slice(-4),
    masked: number ? maskCardNumber(number) : '',
    expiration: /^\d{4}$/.test(mmyy) ? `${mmyy.slice(0, 2)}/${mmyy.slice(2)}` : mmyy,
  };
}

/**
 * Payment Information (000 §2, §4; docs/decisions/008 §7): the ADD NEW CARD tile, the card tile
 * with EDIT and REMOVE, the billing form in ADD or UPDATE mode, the pending-cancel notice with
 * REACTIVATE, or the inactive reactivation message with the previous card.
 */
export function PaymentInformation() {
  const { user, refetch } = useCurrentUser();
  const toast = useToast();
  const requestKeys = useRequestKey();
  const [editing, setEditing] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [busy, setBusy] = useState(false);
  // Where focus goes once the card area has re-rendered: the button that opened the form, or the
  // section heading when the element the user pressed has gone (REACTIVATE, REMOVE). A ref, read
  // after every render, plus a state bump that asks for that render.
  const focusAfter = useRef<'opener' | 'heading' | null>(null);
  const [, setFocusRequests] = useState(0);
  const moveFocus = (to: 'opener' | 'heading') => {
    focusAfter.current = to;
    setFocusRequests((count) => count + 1);
  };
  const headingRef = useRef<HTMLHeadingElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const card = cardOf(user);
  const flags = accountFlags(user);
  const area = cardArea({ flags, hasCard: card.present, editing });

  useEffect(() => {
    if (focusAfter.current === null) return;
    const target = focusAfter.current === 'opener' ? openerRef.current : null;
    (target ?? headingRef.current)?.focus();
    focusAfter.current = null;
  });

  const closeForm = (saved: boolean) => {
    setEditing(false);
    moveFocus(saved ? 'heading' : 'opener');
  };

  // Two buttons, no form: a failure is told in the error toast, in the server's words.
  const sendRemove = useSubmit({ onFailure: ({ message }) => toast.error(message) });
  const sendReactivate = useSubmit({
    keys: requestKeys,
    onFailure: ({ message }) => toast.error(message),
  });

  const remove = async () => {
    setBusy(true);
    const outcome = await sendRemove(() => removePaymentProfile());
    setConfirmRemove(false);
    if (outcome.ok) {
      await refetch().catch(() => undefined);
      moveFocus('heading');
      toast.success();
    }
    setBusy(false);
  };

  const reactivate = async () => {
    setBusy(true);
    // Its intent's key (docs/decisions/038): a resend after a lost answer acts no second time.
    const outcome = await sendReactivate(() =>
      reactivateAccount({ requestKey: requestKeys.keyFor({}) }),
    );
    if (outcome.ok) {
      await refetch().catch(() => undefined);
      moveFocus('heading');
      toast.success();
    }
    setBusy(false);
  };

  return (
    <section
      className="card billing-section"
      aria-labelledby="payment-information-title"
      data-testid="card-area"
      data-view={area.view}
    >
      <h2 id="payment-information-title" ref={headingRef} tabIndex={-1}>
        Payment Information
      </h2>
      {area.view === 'pendingCancelNotice' ? (
        <div className="account-notice" data-testid="pending-cancel-notice">
          <p>{pendingCancelNoticeOf(user)}</p>
          <Button onClick={reactivate} busy={busy}>
            {BILLING_TEXTS.reactivate}
          </Button>
        </div>
      ) : null}
      {area.view === 'addPrompt' ? (
        <button
          ref={openerRef}
          type="button"
          className="card-tile card-tile--add"
          onPointerEnter={preloadForm}
          onFocus={preloadForm}
          onClick={() => setEditing(true)}
        >
          <span aria-hidden="true" className="card-tile__plus">
            +
          </span>
          {BILLING_TEXTS.addNewCard}
        </button>
      ) : null}
      {area.view === 'cardSummary' ? (
        <div className="card-tile" data-testid="card-tile">
          <p className="card-tile__type">{card.type}</p>
          <p className="card-tile__number">
            <span className="visually-hidden">Card ending in </span>
            <span aria-hidden="true">{card.masked}</span>
            <span className="visually-hidden">{card.lastDigits}</span>
          </p>
          <p className="card-tile__expiry">Expires {card.expiration}</p>
          <div className="card-tile__actions">
            <Button
              ref={openerRef}
              variant="secondary"
              aria-label={`${BILLING_TEXTS.edit} card ending in ${card.lastDigits}`}
              onPointerEnter={preloadForm}
              onFocus={preloadForm}
              onClick={() => setEditing(true)}
            >
              {BILLING_TEXTS.edit}
            </Button>
            <Button
              variant="secondary"
              aria-label={`${BILLING_TEXTS.remove} card ending in ${card.lastDigits}`}
              onClick={() => setConfirmRemove(true)}
            >
              {BILLING_TEXTS.remove}
            </Button>
          </div>
        </div>
      ) : null}
      {area.view === 'form' ? (
        <>
          {area.showInactiveMessage ? (
            <p className="account-notice" data-testid="inactive-message">
              {inactiveReactivationMessage({
                type: card.type || 'Card',
                lastDigits: card.lastDigits || '—',
                expiration: card.expiration || '—',
              })}
            </p>
          ) : null}
          <Suspense
            fallback={
              <p className="page-loading" role="status">
                <span className="spinner" aria-hidden="true" />
                <span>Loading the form…</span>
              </p>
            }
          >
            <BillingForm
              key={`${area.formMode}-${text(user.creditCardNumber)}`}
              area={area}
              focusOnOpen={editing}
              onDone={closeForm}
            />
          </Suspense>
        </>
      ) : null}
      <Dialog
        open={confirmRemove}
        title="Remove card"
        onClose={() => setConfirmRemove(false)}
        footer={
          <>
            <Button onClick={remove} busy={busy}>
              {BILLING_TEXTS.remove}
            </Button>
            <Button
              variant="secondary"
              onClick={() => setConfirmRemove(false)}
              disabled={busy}
              data-dialog-initial-focus
            >
              CANCEL
            </Button>
          </>
        }
      >
        <p>{BILLING_TEXTS.removeCardQuestion}</p>
        <p>
          {card.type} ending in {card.lastDigits}, expires {card.expiration}.
        </p>
      </Dialog>
    </section>
  );
}
