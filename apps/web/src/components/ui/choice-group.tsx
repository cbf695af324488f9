import { useId, type InputHTMLAttributes, type Ref } from 'react';
import './choice-group.css';

export interface IChoice {
  value: string;
  label: string;
  hint: string;
}

type ChoiceGroupProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id' | 'value'> & {
  legend: string;
  options: readonly IChoice[];
  ref?: Ref<HTMLInputElement>;
};

/**
 * Radio buttons that choose between ways of filling a form, each with a label and a hint read
 * with it. The remaining props (react-hook-form's `register(…)`) go on every radio.
 */
export function ChoiceGroup({ legend, options, ...input }: ChoiceGroupProps) {
  const groupId = useId();
  return (
    <fieldset className="choice-group">
      <legend className="choice-group__legend">{legend}</legend>
      {options.map((option) => (
        <div className="choice" key={option.value}>
          <input
            type="radio"
            id={`${groupId}-${option.value}`}
            value={option.value}
            aria-describedby={`${groupId}-${option.value}-hint`}
            {...input}
          />
          <label htmlFor={`${groupId}-${option.value}`}>{option.label}</label>
          <p id={`${groupId}-${option.value}-hint`} className="choice__hint">
            {option.hint}
          </p>
        </div>
      ))}
    </fieldset>
  );
}
