import type { ReactNode } from 'react';
import {
  CATALOGUE,
  CATALOGUE_GROUPS,
  FOOTNOTES,
  isExtraCode,
  type TSubscriptionCode,
} from '@dealerpass/domain/catalogue';
import { monthlyPriceText } from '@dealerpass/domain/messages/ui-texts';
import { extrasAreFree, priceOf } from '@dealerpass/domain/prices';
import { canSelect, type ISelection } from '@dealerpass/domain/selection';
import { priceTable } from '../lib/price-table.ts';
import './subscription-catalogue.css';

const GROUPS = CATALOGUE_GROUPS.map((group) => ({
  group,
  items: CATALOGUE.filter((item) => item.group === group),
}));

/**
 * The catalogue as checkboxes with today's prices (001 §2, §4; R3), shared by the sign-up's
 * page 2 and the change page (R10): pricing guides, market reports and extras with their
 * simulcasts; a simulcast is enabled only with its base, GALVES_S is shown as unavailable. The
 * caller applies the domain's selection rules in `onToggle` (`toggleCode`).
 */
export function SubscriptionCatalogue({
  id,
  legend,
  selection,
  onToggle,
  now,
  error,
  note,
  removalsOnly = false,
}: {
  id: string;
  legend: string;
  selection: ISelection;
  onToggle: (code: TSubscriptionCode) => void;
  now: Date;
  error?: string | undefined;
  /** Per-code text beside an item (the change page's "removal pending"). */
  note?: (code: TSubscriptionCode) => ReactNode;
  /** Only unticking is possible (R10: validating payment): unticked items are disabled. */
  removalsOnly?: boolean;
}) {
  const table = priceTable();
  // R3: with two paid items the extras cost nothing; their price says so rather than the list price.
  const freeExtras = extrasAreFree(selection.codes);
  const price = (code: TSubscriptionCode) =>
    monthlyPriceText(priceOf(code, now, table), freeExtras && isExtraCode(code));
  return (
    <fieldset
      id={id}
      tabIndex={-1}
      className={`signup-catalogue${error ? ' field--invalid' : ''}`}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend className="signup-catalogue__legend">{legend}</legend>
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
      {GROUPS.map(({ group, items }) => (
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
                      disabled={removalsOnly && !selection.codes.includes(item.code)}
                      onChange={() => onToggle(item.code)}
                    />
                    <label htmlFor={baseId}>
                      {item.name}
                      {footnote ? (
                        <span aria-hidden="true" className="signup-footnote-marker">
                          {footnote.marker}
                        </span>
                      ) : null}{' '}
                      <span className="signup-item__price">{price(item.code)}</span>
                      {note?.(item.code)}
                    </label>
                  </div>
                  {item.simulcastAvailable ? (
                    <div className="signup-checkbox signup-item__simulcast">
                      <input
                        type="checkbox"
                        id={simId}
                        checked={selection.codes.includes(item.simulcastCode)}
                        disabled={
                          !simulcastEnabled ||
                          (removalsOnly && !selection.codes.includes(item.simulcastCode))
                        }
                        aria-describedby={simulcastEnabled ? undefined : `${simId}-hint`}
                        onChange={() => onToggle(item.simulcastCode)}
                      />
                      <label htmlFor={simId}>
                        <span className="visually-hidden">{item.name} </span>Simulcast{' '}
                        <span className="signup-item__price">{price(item.simulcastCode)}</span>
                        {note?.(item.simulcastCode)}
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
  );
}
