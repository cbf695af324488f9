import { useWatch, type Control } from 'react-hook-form';
import {
  ZStaffSignInRequestSchema,
  type TStaffSignInRequest,
} from '@dealerpass/domain/schemas/sign-in';
import { TextField } from '../../../components/ui/fields.tsx';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';
import { submitStaffLogin } from '../api/submit-staff-login.ts';
import { SignInFrame, useSignInSubmit } from './sign-in-parts.tsx';

interface IStaffSignInValues {
  email: string;
  password: string;
  recaptcha: string;
}

const FIELD_IDS = { email: 'staff-sign-in-email', password: 'staff-sign-in-password' } as const;

interface StaffSignInFormProps {
  uid: string;
  loginHint: string | null;
  onExpired: () => void;
}

/**
 * The staff variant of the provider's sign-in form (decision 026): staff have an e-mail and a
 * password only, so there is no legacy username, no sign-up and no self-service password reset
 * (an admin resets a member). The second factor follows in the console itself. It is the dealer
 * form's frame and submit (`sign-in-parts.tsx`) with the e-mail as its only other field.
 */
export default function StaffSignInForm({ uid, loginHint, onExpired }: StaffSignInFormProps) {
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
  const { signIn, leaving, captchaOnDemand } = useSignInSubmit({
    uid,
    onExpired,
    summary,
    fields: FIELD_IDS,
    setError,
    clearPassword: () => setValue('password', ''),
  });

  const onValid = (values: TStaffSignInRequest) => signIn(values, captcha, submitStaffLogin);

  return (
    <SignInFrame
      titleId="staff-sign-in-title"
      title="Staff sign-in details"
      errorSummary={errorSummary}
      onSubmit={handleSubmit(onValid, onInvalid)}
      passwordId={FIELD_IDS.password}
      password={register('password')}
      passwordError={errors.password?.message}
      captcha={{ ...captchaOnDemand, value: captcha }}
      control={control as unknown as Control<IStaffSignInValues>}
      setValue={setValue}
      aside="Forgot your password or lost your authenticator? Ask a DealerPass admin to reset it."
      busy={isSubmitting || leaving}
    >
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
    </SignInFrame>
  );
}
