import { useState, type ReactNode } from 'react';
import type { Control, FieldValues, UseFormRegisterReturn, UseFormSetValue } from 'react-hook-form';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { CaptchaField } from '../../../components/ui/captcha/captcha-field.tsx';
import { useCaptchaOnDemand } from '../../../components/ui/captcha/use-captcha-on-demand.ts';
import { ErrorSummary, type IErrorSummaryItem } from '../../../components/ui/error-summary.tsx';
import { TextField } from '../../../components/ui/fields.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { loadPage } from '../../../lib/full-page-navigation.ts';
import { useSubmit } from '../../../lib/use-submit.ts';

/** What both sign-in forms hold besides their own fields. */
export interface ISignInCommonValues extends FieldValues {
  password: string;
  /** Asked for only after repeated failed sign-ins for the account (docs/decisions/016). */
  recaptcha: string;
}

interface ISignInSubmitOptions<K extends string> {
  uid: string;
  /** The interaction ended while the form was open (404): the page offers a fresh start. */
  onExpired: () => void;
  summary: { show(title: string, items: IErrorSummaryItem[]): void; clear(): void };
  fields: Readonly<Record<K, string>>;
  setError: (field: NoInfer<K>, error: { message: string }) => void;
  /** Empties the password after a failure (the e-mail or username is kept). */
  clearPassword: () => void;
}

/**
 * The submit of the provider's sign-in forms, dealer and staff (decision 009, 026): the captcha
 * goes only once the server has asked for one; a success is a full navigation to where the
 * provider says; a 404 is an expired interaction; any other failure keeps what was typed but the
 * password and says why.
 */
export function useSignInSubmit<K extends string>(options: ISignInSubmitOptions<K>) {
  const { uid, onExpired, summary, fields, setError, clearPassword } = options;
  const [leaving, setLeaving] = useState(false);
  const captchaOnDemand = useCaptchaOnDemand();
  const send = useSubmit({
    title: 'We could not sign you in',
    summary,
    fields,
    setError,
    onFailure: ({ error }) => {
      if (error instanceof ApiError && error.status === 404) {
        summary.clear();
        onExpired();
        return;
      }
      clearPassword();
      captchaOnDemand.afterFailure(error);
    },
  });
  /** Sends the credentials (their `recaptcha` is replaced by the captcha when one was asked). */
  const signIn = async <TBody extends { recaptcha?: string }>(
    values: TBody,
    captcha: string,
    post: (uid: string, body: TBody) => Promise<{ redirectTo: string }>,
  ) => {
    const { recaptcha: _unasked, ...credentials } = values;
    const body = (
      captchaOnDemand.asked && captcha ? { ...credentials, recaptcha: captcha } : credentials
    ) as TBody;
    const outcome = await send(() => post(uid, body));
    if (!outcome.ok) return;
    setLeaving(true);
    // A full navigation: the provider finishes the authorization and sends the browser on.
    loadPage(outcome.value.redirectTo);
  };
  return { signIn, leaving, captchaOnDemand };
}

interface ISignInFrameProps<T extends ISignInCommonValues> {
  /** The visually hidden heading the form is labelled by. */
  titleId: string;
  title: string;
  errorSummary: { title: string; items: readonly IErrorSummaryItem[]; focusKey: number };
  onSubmit: () => void;
  /** The fields above the password: the way to sign in and the e-mail or username. */
  children: ReactNode;
  passwordId: string;
  password: UseFormRegisterReturn;
  passwordError?: string;
  captcha: { asked: boolean; resetSignal: number; value: string };
  control: Control<T>;
  setValue: UseFormSetValue<T>;
  /** Below the fields: the way back in when the password is lost. */
  aside: ReactNode;
  busy: boolean;
}

/** The frame both sign-in forms share: summary, their fields, password, captcha, aside, submit. */
export function SignInFrame<T extends ISignInCommonValues>(props: ISignInFrameProps<T>) {
  const { captcha, busy } = props;
  return (
    <form
      className="auth-form card"
      onSubmit={props.onSubmit}
      noValidate
      aria-labelledby={props.titleId}
    >
      <h2 id={props.titleId} className="visually-hidden">
        {props.title}
      </h2>
      <ErrorSummary {...props.errorSummary} />
      {props.children}
      <TextField
        id={props.passwordId}
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        {...props.password}
        error={props.passwordError}
      />
      {captcha.asked ? (
        <CaptchaField
          control={props.control}
          name={'recaptcha' as never}
          setValue={props.setValue}
          resetSignal={captcha.resetSignal}
        />
      ) : null}
      <p className="auth-form__aside">{props.aside}</p>
      <div className="form-actions">
        <SubmitButton busy={busy} disabled={captcha.asked && !captcha.value}>
          {busy ? 'Signing in…' : 'Sign in'}
        </SubmitButton>
      </div>
    </form>
  );
}
