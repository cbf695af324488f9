import { useState } from 'react';
import { useWatch, type Control } from 'react-hook-form';
import { Link } from '../../../lib/router/router.tsx';
import type { TSignInRequest } from '@dealerpass/domain/schemas/sign-in';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { ChoiceGroup, type IChoice } from '../../../components/ui/choice-group.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { CaptchaField } from '../../../components/ui/captcha/captcha-field.tsx';
import { useCaptchaOnDemand } from '../../../components/ui/captcha/use-captcha-on-demand.ts';
import { TextField } from '../../../components/ui/fields.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { failureMessage, fieldErrorsOf } from '../../../lib/error-text.ts';
import { loadPage } from '../../../lib/full-page-navigation.ts';
import { submitInteractionLogin } from '../api/submit-interaction-login.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';

type TSignInMethod = TSignInRequest['method'];

/** Both ways' fields live in one form, so switching keeps what was typed. */
interface ISignInFormValues {
  method: TSignInMethod;
  email: string;
  username: string;
  password: string;
  /** Asked for only after repeated failed sign-ins for the account (docs/decisions/016). */
  recaptcha: string;
}

const FIELD_IDS = {
  email: 'sign-in-email',
  username: 'sign-in-username',
  password: 'sign-in-password',
} as const;
type TField = keyof typeof FIELD_IDS;
const FIELDS = Object.keys(FIELD_IDS) as TField[];

const METHODS: (IChoice & { value: TSignInMethod })[] = [
  { value: 'email', label: 'DealerPass ID', hint: 'Your email address and password.' },
  {
    value: 'legacy',
    label: 'Legacy username',
    hint: 'For accounts moved from our previous system that have no DealerPass ID yet.',
  },
];

interface SignInFormProps {
  uid: string;
  loginHint: string | null;
  /** The interaction ended while the form was open (404): the page offers a fresh start. */
  onExpired: () => void;
}

const loadSignInSchema = () =>
  import('@dealerpass/domain/schemas/sign-in').then((module) => module.ZSignInRequestSchema);

/** The embedded provider's sign-in form (DECISIONS R6, docs/decisions/009). */
export function SignInForm({ uid, loginHint, onExpired }: SignInFormProps) {
  const [leaving, setLeaving] = useState(false);
  const captchaOnDemand = useCaptchaOnDemand();
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    clearErrors,
    formState: { errors, isSubmitting },
    summary,
    onInvalid,
    errorSummary,
  } = useValidatedForm<ISignInFormValues, TSignInRequest, keyof typeof FIELD_IDS>(
    // The domain's schema is a union on `method`; it reads only the chosen way's fields. It is
    // imported when the page is first used, not before its first paint (docs/decisions/027).
    loadSignInSchema,
    FIELD_IDS,
    {
      defaultValues: {
        method: 'email',
        email: loginHint ?? '',
        username: '',
        password: '',
        recaptcha: '',
      },
    },
  );
  const method = useWatch({ control, name: 'method' });
  const captcha = useWatch({ control, name: 'recaptcha' });

  const onValid = async (values: TSignInRequest) => {
    summary.clear();
    try {
      // The captcha goes only once the server has asked for one.
      const { recaptcha: _unasked, ...credentials } = values;
      const { redirectTo } = await submitInteractionLogin(
        uid,
        captchaOnDemand.asked && captcha ? { ...credentials, recaptcha: captcha } : credentials,
      );
      setLeaving(true);
      // A full navigation: the provider finishes the authorization and sends the browser on.
      loadPage(redirectTo);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        onExpired();
        return;
      }
      // Keep the e-mail or username; the password is typed again.
      setValue('password', '');
      captchaOnDemand.afterFailure(error);
      for (const { field, message } of fieldErrorsOf(error, FIELDS)) {
        setError(field, { message });
      }
      summary.show('We could not sign you in', [{ message: failureMessage(error) }]);
    }
  };

  const busy = isSubmitting || leaving;
  return (
    <form
      className="auth-form card"
      onSubmit={handleSubmit(onValid, onInvalid)}
      noValidate
      aria-labelledby="sign-in-title"
    >
      <h2 id="sign-in-title" className="visually-hidden">
        Sign-in details
      </h2>
      <ErrorSummary {...errorSummary} />
      <ChoiceGroup
        legend="Sign in with"
        options={METHODS}
        {...register('method', { onChange: () => clearErrors() })}
      />
      {method === 'legacy' ? (
        <TextField
          id={FIELD_IDS.username}
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          {...register('username')}
          error={errors.username?.message}
        />
      ) : (
        <TextField
          id={FIELD_IDS.email}
          label="Email"
          type="email"
          autoComplete="username"
          spellCheck={false}
          required
          {...register('email')}
          error={errors.email?.message}
        />
      )}
      <TextField
        id={FIELD_IDS.password}
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        {...register('password')}
        error={errors.password?.message}
      />
      {captchaOnDemand.asked ? (
        <CaptchaField
          // The field reads and writes the raw value; the form's parsed type does not matter to it.
          control={control as unknown as Control<ISignInFormValues>}
          name="recaptcha"
          setValue={setValue}
          resetSignal={captchaOnDemand.resetSignal}
        />
      ) : null}
      <p className="auth-form__aside">
        <Link to="/identity/forgot-password">Forgot password?</Link>
      </p>
      <div className="form-actions">
        <SubmitButton busy={busy} disabled={captchaOnDemand.asked && !captcha}>
          {busy ? 'Signing in…' : 'Sign in'}
        </SubmitButton>
      </div>
    </form>
  );
}
