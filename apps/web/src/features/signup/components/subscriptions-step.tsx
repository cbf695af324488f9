import { useState } from 'react';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { toggleCode, type ISelection } from '@dealerpass/domain/selection';
import { SubscriptionCatalogue } from '../../../components/subscription-catalogue.tsx';
import { Button, SubmitButton } from '../../../components/ui/button.tsx';
import { ErrorSummary, useErrorSummary } from '../../../components/ui/error-summary.tsx';
import { usePriceClock } from '../../../lib/use-price-clock.ts';
import { PricingCalculator } from './pricing-calculator.tsx';
import { useSubmit } from '../../../lib/use-submit.ts';
import { SIGNUP_FIELD_ALIASES } from './step-failure.ts';

const FIELD_IDS = { subscriptions: 'signup-subscriptions' } as const;

/**
 * Page 2, subscriptions (001 §2, §4; R3): pricing guides, market reports and extras with their
 * simulcasts, chosen through the domain's selection rules, beside the live calculator.
 */
export function SubscriptionsStep({
  initial,
  onDone,
  onBack,
}: {
  initial: ISelection;
  onDone: (selection: ISelection) => Promise<void>;
  onBack: () => void;
}) {
  const [selection, setSelection] = useState<ISelection>(initial);
  const now = usePriceClock();
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const summary = useErrorSummary();
  const send = useSubmit({
    title: 'Your selection was not saved',
    summary,
    fields: FIELD_IDS,
    setError: (_field, e) => setError(e.message),
    aliases: SIGNUP_FIELD_ALIASES,
  });

  const toggle = (code: TSubscriptionCode) => {
    const next = toggleCode(selection, code);
    setSelection(next);
    if (error && next.codes.length > 0) setError(undefined);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    summary.clear();
    // The schema is imported at the first submit, not before the first paint (decision 027).
    const { ZSignupSubscriptionsFormSchema } =
      await import('@dealerpass/domain/schemas/signup-subscriptions');
    const parsed = ZSignupSubscriptionsFormSchema.safeParse({ subscriptions: selection.codes });
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? '';
      setError(message);
      summary.show('There is a problem', [{ message, fieldId: FIELD_IDS.subscriptions }]);
      return;
    }
    setBusy(true);
    await send(() => onDone(selection));
    setBusy(false);
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="signup-heading">
      <ErrorSummary {...summary.props} />
      <div className="signup-subscriptions">
        <SubscriptionCatalogue
          id={FIELD_IDS.subscriptions}
          legend="Choose your subscriptions"
          selection={selection}
          onToggle={toggle}
          now={now}
          error={error}
        />
        <PricingCalculator codes={selection.codes} now={now} />
      </div>
      <div className="form-actions">
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
        <SubmitButton busy={busy}>{busy ? 'Saving…' : 'Continue'}</SubmitButton>
      </div>
    </form>
  );
}
