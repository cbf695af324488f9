import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { describedBy, FieldMessages } from './fields.tsx';
import './checkbox-field.css';

type CheckboxFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  ref?: Ref<HTMLInputElement>;
};

/** A labelled checkbox with its hint and error tied to it (aria-describedby), as the text fields do. */
export function CheckboxField({ label, error, hint, ref, ...input }: CheckboxFieldProps) {
  const generated = useId();
  const id = input.id ?? generated;
  return (
    <div className={`field field--checkbox${error ? ' field--invalid' : ''}`}>
      <div className="checkbox-row">
        <input
          {...input}
          ref={ref}
          id={id}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, hint)}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  );
}
