import { useMemo, useState } from 'react';
import {
  CATALOGUE,
  CATALOGUE_GROUPS,
  FOOTNOTES,
  type TSubscriptionCode,
} from '@dealerpass/domain/catalogue';
import { formatCurrency } from '@dealerpass/domain/money';
import { priceOf } from '@dealerpass/domain/prices';
import { priceTable } from '../../../lib/price-table.ts';
import { ZSignupSubscriptionsFormSchema } from '@dealerpass/domain/schemas/signup-subscriptions';
import { canSelect, toggleCode, type ISelection } from '@dealerpass/domain/selection';
import { Button, SubmitButton } from '../../../components/ui/button.tsx';
import { ErrorSummary, useErrorSummary } from '../../../components/ui/error-summary.tsx';
import { usePriceClock } from '../../../lib/use-price-clock.ts';
import { PricingCalculator } from './pricing-calculator.tsx';
import { applyServerErrors, type StepFailure } from './step-failure.ts';

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
  const groups = useMemo(
    () =>
      CATALOGUE_GROUPS.map((group) => ({
        group,
        items: CATALOGUE.filter((item) => item.group === group),
      })),
    [],
  );

  const toggle = (code: TSubscriptionCode) => {
    const next = toggleCode(selection, code);
    setSelection(next);
    if (error && next.codes.length > 0) setError(undefined);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    summary.clear();
    const parsed = ZSignupSubscriptionsFormSchema.safeParse({ subscriptions: selection.codes });
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? '';
      setError(message);
      summary.show('There is a problem', [{ message, fieldId: FIELD_IDS.subscriptions }]);
      return;
    }
    setBusy(true);
    try {
      await onDone(selection);
    } catch (failure) {
      const items = applyServerErrors(failure as StepFailure, FIELD_IDS, (_field, e) =>
        setError(e.message),
      );
      summary.show('Your selection was not saved', items);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="signup-heading">
      <ErrorSummary {...summary.props} />
      <div className="signup-subscriptions">
        <fieldset
          id={FIELD_IDS.subscriptions}
          tabIndex={-1}
          className={`signup-catalogue${error ? ' field--invalid' : ''}`}
          aria-describedby={error ? `${FIELD_IDS.subscriptions}-error` : undefined}
        >
          <legend className="signup-catalogue__legend">Choose your subscriptions</legend>
          {error ? (
            <p id={`${FIELD_IDS.subscriptions}-error`} className="field__error">
              {error}
            </p>
          ) : null}
          {groups.map(({ group, items }) => (
            <fieldset key={group} className="signup-group">
              <legend>{group}</legend>
              <ul className="signup-items">
                {items.map((item) => {
                  const baseId = `sub-${item.code}`;
                  const simId = `sub-${item.simulcastCode}`;
                  const footnote = item.footnote ? FOOTNOTES[item.footnote] : null;
                  const simulcastEnabled = canSelect(selection, item.simulcastCode);
                  return (
                    <li key={item.code} className="signup-item">
                      <div className="signup-checkbox">
                        <input
                          type="checkbox"
                          id={baseId}
                          checked={selection.codes.includes(item.code)}
                          onChange={() => toggle(item.code)}
                        />
                        <label htmlFor={baseId}>
                          {item.name}
                          {footnote ? (
                            <span aria-hidden="true" className="signup-footnote-marker">
                              {footnote.marker}
                            </span>
                          ) : null}{' '}
                          <span className="signup-item__price">
                            {formatCurrency(priceOf(item.code, now, priceTable()))}/mo
                          </span>
                        </label>
                      </div>
                      {item.simulcastAvailable ? (
                        <div className="signup-checkbox signup-item__simulcast">
                          <input
                            type="checkbox"
                            id={simId}
                            checked={selection.codes.includes(item.simulcastCode)}
                            disabled={!simulcastEnabled}
                            aria-describedby={simulcastEnabled ? undefined : `${simId}-hint`}
                            onChange={() => toggle(item.simulcastCode)}
                          />
                          <label htmlFor={simId}>
                            <span className="visually-hidden">{item.name} </span>Simulcast{' '}
                            <span className="signup-item__price">
                              {formatCurrency(priceOf(item.simulcastCode, now, priceTable()))}/mo
                            </span>
                          </label>
                          {simulcastEnabled ? null : (
                            <span id={`${simId}-hint`} className="visually-hidden">
                              Select {item.name} first.
                            </span>
                          )}
                        </div>
                      ) : (
                        <p className="signup-item__unavailable">
                          <span className="visually-hidden">{item.name} </span>Simulcast unavailable
                        </p>
                      )}
                    </li>
                  );
                })}
              </ul>
            </fieldset>
          ))}
          <div className="signup-footnotes">
            {Object.values(FOOTNOTES).map((note) => (
              <p key={note.marker} className="form-note">
                <span aria-hidden="true">{note.marker} </span>
                {note.text}
              </p>
            ))}
          </div>
        </fieldset>
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
