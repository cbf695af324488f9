import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  type Ref,
} from 'react';

/**
 * Labelled form fields. Every field has a visible label, marks itself required and invalid for
 * assistive technology, and ties its error and hint to the control with aria-describedby.
 */
interface FieldFrameProps {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  required?: boolean | undefined;
  children: ReactNode;
}

function FieldFrame({ id, label, error, hint, required, children }: FieldFrameProps) {
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {children}
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  );
}

/** A field's hint and error, with the ids `describedBy` points the control at. */
export function FieldMessages({
  id,
  error,
  hint,
}: {
  id: string;
  error?: string | undefined;
  hint?: ReactNode;
}) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </>
  );
}

/** The control's aria-describedby: its hint and its error, when there are any. */
export function describedBy(id: string, error?: string, hint?: ReactNode): string | undefined {
  return (
    [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') ||
    undefined
  );
}

type Common = { label: string; error?: string | undefined; hint?: ReactNode };

export function TextField({
  label,
  error,
  hint,
  ref,
  ...input
}: Common & InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  const generated = useId();
  const id = input.id ?? generated;
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} required={input.required}>
      <input
        {...input}
        ref={ref}
        id={id}
        className="field__control"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
      />
    </FieldFrame>
  );
}

export function TextAreaField({
  label,
  error,
  hint,
  ref,
  ...textarea
}: Common & TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> }) {
  const generated = useId();
  const id = textarea.id ?? generated;
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} required={textarea.required}>
      <textarea
        {...textarea}
        ref={ref}
        id={id}
        className="field__control field__control--textarea"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
      />
    </FieldFrame>
  );
}

export function SelectField({
  label,
  error,
  hint,
  ref,
  options,
  placeholder,
  ...select
}: Common &
  SelectHTMLAttributes<HTMLSelectElement> & {
    ref?: Ref<HTMLSelectElement>;
    options: readonly { value: string; label: string }[];
    placeholder?: string;
  }) {
  const generated = useId();
  const id = select.id ?? generated;
  // A new option list is a new <select>: a value set while its option was missing (a state
  // copied together with its country) would otherwise show the placeholder. The form library
  // puts the field's value on the new element when it registers it.
  const optionsKey = options.map((option) => option.value).join('\n');
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} required={select.required}>
      <select
        key={optionsKey}
        {...select}
        ref={ref}
        id={id}
        className="field__control"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
