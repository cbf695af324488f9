import type { ButtonHTMLAttributes, Ref } from 'react';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'link';
  busy?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

export function Button({
  variant = 'primary',
  busy = false,
  className,
  children,
  disabled,
  ...rest
}: ButtonProps) {
  return (
    <button
      type="button"
      {...rest}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      className={['button', `button--${variant}`, className].filter(Boolean).join(' ')}
    >
      {children}
    </button>
  );
}

/**
 * A form's submit button. Pressing it does not blur the focused field first: the message that
 * blur would show moves the button away before the click lands, and the click is lost.
 * Validation runs on submit anyway; keyboard submits are unaffected.
 */
export function SubmitButton({ onMouseDown, ...rest }: Omit<ButtonProps, 'type'>) {
  return (
    <Button
      {...rest}
      type="submit"
      onMouseDown={(event) => {
        event.preventDefault();
        onMouseDown?.(event);
      }}
    />
  );
}
