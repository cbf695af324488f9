import { useEffect, useRef, useState } from 'react';
import type { ISignupOrderSummary } from '@dealerpass/domain/billing/order-summary';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { Button } from '../../../components/ui/button.tsx';
import { getOrderSummary } from '../api/get-order-summary.ts';

/** The last answer, for the request it answered (a new request shows the last one, busy). */
interface IAnswer {
  key: string;
  summary: ISignupOrderSummary | null;
}

/**
 * Page 4's Order Summary (001 §2; DECISIONS R4, R11; docs/decisions/032): the server's answer,
 * computed as the sign-up will charge, for the selection and the promotion code entered. Asked
 * again when the code is entered (the field's blur), never computed here, so it cannot say
 * something the charge will not do. Changes are announced (a polite live region).
 */
export function OrderSummary({
  codes,
  promoCode,
}: {
  codes: readonly TSubscriptionCode[];
  /** The promotion code as last entered (trimmed; empty for none). */
  promoCode: string;
}) {
  const [answer, setAnswer] = useState<IAnswer | null>(null);
  const [attempt, setAttempt] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);
  const selection = codes.join(',');
  const key = `${selection}|${promoCode}|${attempt}`;

  useEffect(() => {
    const controller = new AbortController();
    const subscriptions = selection === '' ? [] : (selection.split(',') as TSubscriptionCode[]);
    getOrderSummary({ subscriptions, promoCode }, controller.signal).then(
      (summary) => setAnswer({ key, summary }),
      () => {
        if (!controller.signal.aborted) setAnswer({ key, summary: null });
      },
    );
    return () => controller.abort();
  }, [key, selection, promoCode]);

  const loading = answer?.key !== key;
  const failed = !loading && answer?.summary === null;
  const shown = answer?.summary ?? null;
  return (
    <section className="signup-order-summary card" aria-labelledby="order-summary-title">
      <h3 id="order-summary-title" ref={heading} tabIndex={-1}>
        Order Summary
      </h3>
      <div aria-live="polite" aria-busy={loading}>
        {failed ? (
          <p data-testid="order-summary-failed">The order summary could not be loaded.</p>
        ) : shown === null ? (
          <p>Working out your order summary…</p>
        ) : (
          <>
            {shown.promotionProblem ? (
              <p className="form-note" data-testid="order-summary-promotion">
                {shown.promotionProblem}
              </p>
            ) : null}
            <p data-testid="order-summary-today">{shown.texts.chargedToday}</p>
            <p data-testid="order-summary">{shown.texts.nextCharge}</p>
            {shown.texts.priceChanges.map((text) => (
              <p key={text} data-testid="order-summary-price-change">
                {text}
              </p>
            ))}
          </>
        )}
      </div>
      {failed ? (
        <Button
          variant="secondary"
          onClick={() => {
            // The button goes while the summary is asked again: focus stays in the summary.
            heading.current?.focus();
            setAttempt((n) => n + 1);
          }}
        >
          Try again
        </Button>
      ) : null}
    </section>
  );
}
