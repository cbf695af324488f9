import { useId, type InputHTMLAttributes, type Ref } from 'react';
import './choice-group.css';

export interface IChoice {
  value: string;
  label: string;
  hint?: string;
}

type ChoiceGroupProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id' | 'value'> & {
  legend: string;
  options: readonly IChoice[];
  /** Stable radio ids (`${idPrefix}-${value}`), for an error summary that links to a radio. */
  idPrefix?: string;
  /** The group's problem, shown under the radios and read with the group. */
  error?: string | undefined;
  ref?: Ref<HTMLInputElement>;
};

/**
 * A group of radio buttons, each with a label and an optional hint read with it. The remaining
 * props (react-hook-form's `register(…)`) go on every radio. Its styles are imported here, so any
 * page that shows the group gets them (not only pages that happened to load them first).
 */
export function ChoiceGroup({ legend, options, idPrefix, error, ...input }: ChoiceGroupProps) {
  const generatedId = useId();
  const groupId = idPrefix ?? generatedId;
  const errorId = `${groupId}-error`;
  return (
    <fieldset className="choice-group" aria-describedby={error ? errorId : undefined}>
      <legend className="choice-group__legend">{legend}</legend>
      {options.map((option) => (
        <div className="choice" key={option.value}>
          <input
            type="radio"
            id={`${groupId}-${option.value}`}
            value={option.value}
            aria-describedby={option.hint ? `${groupId}-${option.value}-hint` : undefined}
            {...input}
          />
          <label htmlFor={`${groupId}-${option.value}`}>{option.label}</label>
          {option.hint ? (
            <p id={`${groupId}-${option.value}-hint`} className="choice__hint">
              {option.hint}
            </p>
          ) : null}
        </div>
      ))}
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
