import { useState } from 'react';
import { useWatch, type Control } from 'react-hook-form';
import {
  ZStaffSignInRequestSchema,
  type TStaffSignInRequest,
} from '@dealerpass/domain/schemas/sign-in';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { CaptchaField } from '../../../components/ui/captcha/captcha-field.tsx';
import { useCaptchaOnDemand } from '../../../components/ui/captcha/use-captcha-on-demand.ts';
import { TextField } from '../../../components/ui/fields.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { failureMessage, fieldErrorsOf } from '../../../lib/error-text.ts';
import { loadPage } from '../../../lib/full-page-navigation.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';
import { submitStaffLogin } from '../api/submit-staff-login.ts';

interface IStaffSignInValues {
  email: string;
  password: string;
  recaptcha: string;
}

const FIELD_IDS = { email: 'staff-sign-in-email', password: 'staff-sign-in-password' } as const;
const FIELDS = Object.keys(FIELD_IDS) as (keyof typeof FIELD_IDS)[];

interface StaffSignInFormProps {
  uid: string;
  loginHint: string | null;
  onExpired: () => void;
}

/**
 * The staff variant of the provider's sign-in form (decision 026): staff have an e-mail and a
 * password only, so there is no legacy username, no sign-up and no self-service password reset
 * (an admin resets a member). The second factor follows in the console itself.
 */
export default function StaffSignInForm({ uid, loginHint, onExpired }: StaffSignInFormProps) {
  const [leaving, setLeaving] = useState(false);
  const captchaOnDemand = useCaptchaOnDemand();
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isSubmitting },
    summary,
    onInvalid,
    errorSummary,
  } = useValidatedForm<IStaffSignInValues, TStaffSignInRequest, keyof typeof FIELD_IDS>(
    ZStaffSignInRequestSchema,
    FIELD_IDS,
    { defaultValues: { email: loginHint ?? '', password: '', recaptcha: '' } },
  );
  const captcha = useWatch({ control, name: 'recaptcha' });

  const onValid = async (values: TStaffSignInRequest) => {
    summary.clear();
    try {
      const { recaptcha: _unasked, ...credentials } = values;
      const { redirectTo } = await submitStaffLogin(
        uid,
        captchaOnDemand.asked && captcha ? { ...credentials, recaptcha: captcha } : credentials,
      );
      setLeaving(true);
      loadPage(redirectTo);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        onExpired();
        return;
      }
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
      aria-labelledby="staff-sign-in-title"
    >
      <h2 id="staff-sign-in-title" className="visually-hidden">
        Staff sign-in details
      </h2>
      <ErrorSummary {...errorSummary} />
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
          control={control as unknown as Control<IStaffSignInValues>}
          name="recaptcha"
          setValue={setValue}
          resetSignal={captchaOnDemand.resetSignal}
        />
      ) : null}
      <p className="auth-form__aside">
        Forgot your password or lost your authenticator? Ask a DealerPass admin to reset it.
      </p>
      <div className="form-actions">
        <SubmitButton busy={busy} disabled={captchaOnDemand.asked && !captcha}>
          {busy ? 'Signing in…' : 'Sign in'}
        </SubmitButton>
      </div>
    </form>
  );
}
