import { useWatch, type Control } from 'react-hook-form';
import { Link } from '../../../lib/router/router.tsx';
import type { TSignInRequest } from '@dealerpass/domain/schemas/sign-in';
import { ChoiceGroup, type IChoice } from '../../../components/ui/choice-group.tsx';
import { TextField } from '../../../components/ui/fields.tsx';
import { submitInteractionLogin } from '../api/submit-interaction-login.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';
import { SignInFrame, useSignInSubmit } from './sign-in-parts.tsx';

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
  const { signIn, leaving, captchaOnDemand } = useSignInSubmit({
    uid,
    onExpired,
    summary,
    fields: FIELD_IDS,
    setError,
    clearPassword: () => setValue('password', ''),
  });

  const onValid = (values: TSignInRequest) => signIn(values, captcha, submitInteractionLogin);

  return (
    <SignInFrame
      titleId="sign-in-title"
      title="Sign-in details"
      errorSummary={errorSummary}
      onSubmit={handleSubmit(onValid, onInvalid)}
      passwordId={FIELD_IDS.password}
      password={register('password')}
      passwordError={errors.password?.message}
      captcha={{ ...captchaOnDemand, value: captcha }}
      // The field reads and writes the raw value; the form's parsed type does not matter to it.
      control={control as unknown as Control<ISignInFormValues>}
      setValue={setValue}
      aside={<Link to="/identity/forgot-password">Forgot password?</Link>}
      busy={isSubmitting || leaving}
    >
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
    </SignInFrame>
  );
}
