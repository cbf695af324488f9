import { useWatch, type Control } from 'react-hook-form';
import {
  ZConnectKarIdRequestSchema,
  type TConnectKarIdRequest,
} from '@dealerpass/domain/schemas/identity';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { ChoiceGroup, type IChoice } from '../../../components/ui/choice-group.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { CaptchaField } from '../../../components/ui/captcha/captcha-field.tsx';
import { useCaptchaOnDemand } from '../../../components/ui/captcha/use-captcha-on-demand.ts';
import { TextField } from '../../../components/ui/fields.tsx';
import { PASSWORD_RULE_HINT } from '../../../lib/password-rule-hint.ts';
import { connectKarId } from '../api/connect-karid.ts';
import { useSubmit } from '../../../lib/use-submit.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';

type TMode = TConnectKarIdRequest['mode'];

/** Both ways' fields in one form, so switching keeps what was typed. */
interface IConnectFormValues {
  mode: TMode;
  email: string;
  password: string;
  confirmPassword: string;
  /** Linking checks a DealerPass ID password: after repeated failures it needs a captcha. */
  recaptcha: string;
}

const FIELD_IDS = {
  email: 'karid-email',
  password: 'karid-password',
  confirmPassword: 'karid-confirm-password',
} as const;

const MODES: (IChoice & { value: TMode })[] = [
  {
    value: 'create',
    label: 'Create a DealerPass ID',
    hint: 'Choose the email address and password you will sign in with from now on.',
  },
  {
    value: 'link',
    label: 'Link an existing DealerPass ID',
    hint: 'Sign in to the DealerPass ID you already have to connect it to this account.',
  },
];

interface KarIdConnectFormProps {
  defaultEmail: string;
  /** Called once the server has connected the DealerPass ID. */
  onConnected: () => Promise<void>;
}

/** Create or link a DealerPass ID for a migrated account (DECISIONS R6). */
export function KarIdConnectForm({ defaultEmail, onConnected }: KarIdConnectFormProps) {
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
  } = useValidatedForm<IConnectFormValues, TConnectKarIdRequest, keyof typeof FIELD_IDS>(
    // The domain's schema is a union on `mode`; it reads only the chosen way's fields.
    ZConnectKarIdRequestSchema,
    FIELD_IDS,
    {
      defaultValues: {
        mode: 'create',
        email: defaultEmail,
        password: '',
        confirmPassword: '',
        recaptcha: '',
      },
    },
  );
  const mode = useWatch({ control, name: 'mode' });
  const captcha = useWatch({ control, name: 'recaptcha' });
  const captchaShown = captchaOnDemand.asked && mode === 'link';

  const send = useSubmit({
    title: 'Your DealerPass ID was not connected',
    summary,
    fields: FIELD_IDS,
    setError,
    onFailure: ({ error }) => captchaOnDemand.afterFailure(error),
  });

  const onValid = async (values: TConnectKarIdRequest) => {
    // The captcha goes only once the server has asked for one.
    const { recaptcha: _unasked, ...body } = values as TConnectKarIdRequest & {
      recaptcha?: string;
    };
    const outcome = await send(() =>
      connectKarId(
        body.mode === 'link' && captchaShown && captcha ? { ...body, recaptcha: captcha } : body,
      ),
    );
    if (outcome.ok) await onConnected();
  };

  const creating = mode === 'create';
  return (
    <form
      className="karid-form card"
      onSubmit={handleSubmit(onValid, onInvalid)}
      noValidate
      aria-label="Connect a DealerPass ID"
    >
      <ErrorSummary {...errorSummary} />
      <ChoiceGroup
        legend="What would you like to do?"
        options={MODES}
        {...register('mode', { onChange: () => clearErrors() })}
      />
      <TextField
        id={FIELD_IDS.email}
        label="Email"
        type="email"
        autoComplete={creating ? 'email' : 'username'}
        spellCheck={false}
        required
        {...register('email')}
        error={errors.email?.message}
      />
      <TextField
        id={FIELD_IDS.password}
        label={creating ? 'New password' : 'Password'}
        type="password"
        autoComplete={creating ? 'new-password' : 'current-password'}
        required
        hint={creating ? PASSWORD_RULE_HINT : undefined}
        {...register('password')}
        error={errors.password?.message}
      />
      {creating ? (
        <TextField
          id={FIELD_IDS.confirmPassword}
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          required
          {...register('confirmPassword')}
          error={errors.confirmPassword?.message}
        />
      ) : null}
      {captchaShown ? (
        <CaptchaField
          // The field reads and writes the raw value; the form's parsed type does not matter to it.
          control={control as unknown as Control<IConnectFormValues>}
          name="recaptcha"
          setValue={setValue}
          resetSignal={captchaOnDemand.resetSignal}
        />
      ) : null}
      <div className="form-actions">
        <SubmitButton busy={isSubmitting} disabled={captchaShown && !captcha}>
          {isSubmitting ? 'Saving…' : creating ? 'Create DealerPass ID' : 'Link DealerPass ID'}
        </SubmitButton>
      </div>
    </form>
  );
}
