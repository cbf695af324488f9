import { useEffect, useRef, useState } from 'react';
import { nameOf, type TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { CHANGE_TEXTS } from '@dealerpass/domain/messages/ui-texts';
import { formatCalendarDate, parseIsoDate } from '@dealerpass/domain/time/calendar-date';
import { Button } from '../../../components/ui/button.tsx';
import { useSubmit } from '../../../lib/use-submit.ts';
import { useSelectionState, useUndoRemoval } from '../api/subscription-change.ts';

/**
 * The removals a change left waiting for the next bill date (R10), each with Undo until then.
 * Nothing is shown while there are none.
 */
export function PendingRemovals() {
  const state = useSelectionState();
  const undoMutation = useUndoRemoval();
  const send = useSubmit();
  const [busy, setBusy] = useState<TSubscriptionCode | null>(null);
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);
  const pending = state.data?.codes ?? [];
  // The Undo pressed is gone with its row: the message that reports the outcome takes the focus.
  const messageRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (message) messageRef.current?.focus();
  }, [message]);

  const undo = async (code: TSubscriptionCode) => {
    setBusy(code);
    setMessage(null);
    const outcome = await send(() => undoMutation.mutateAsync(code));
    setMessage(
      outcome.ok
        ? { text: `${nameOf(code)} stays in your subscriptions.`, failed: false }
        : { text: outcome.message, failed: true },
    );
    setBusy(null);
  };

  return (
    <>
      {pending.length > 0 ? (
        <section
          className="card pending-removals"
          aria-labelledby="pending-removals-heading"
          data-testid="pending-removals"
        >
          <h2 id="pending-removals-heading">{CHANGE_TEXTS.pendingHeading}</h2>
          <p>
            These stop on{' '}
            {formatCalendarDate(
              state.data?.takeEffectOn ? parseIsoDate(state.data.takeEffectOn) : null,
            )}
            ; until then they keep running.
          </p>
          <ul>
            {pending.map((code) => (
              <li key={code} data-code={code}>
                <span>{nameOf(code)}</span>
                <Button
                  variant="secondary"
                  busy={busy === code}
                  aria-label={`${CHANGE_TEXTS.undo}: keep ${nameOf(code)}`}
                  onClick={() => void undo(code)}
                >
                  {CHANGE_TEXTS.undo}
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div role={message?.failed ? 'alert' : 'status'}>
        {message ? (
          <p
            ref={messageRef}
            tabIndex={-1}
            className={message.failed ? 'field__error' : undefined}
            data-testid="undo-message"
          >
            {message.text}
          </p>
        ) : null}
      </div>
    </>
  );
}
