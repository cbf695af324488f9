import { useState } from 'react';
import { type FieldErrors } from 'react-hook-form';
import { Link } from '../../../lib/router/router.tsx';
import {
  ZNewPasswordFormSchema,
  type TNewPasswordForm,
  type TSetPasswordRequest,
} from '@dealerpass/domain/schemas/identity';
import { SubmitButton } from '../../../components/ui/button.tsx';
import {
  ErrorSummary,
  invalidFieldItems,
  type IErrorSummaryItem,
} from '../../../components/ui/error-summary.tsx';
import { TextField } from '../../../components/ui/fields.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { PASSWORD_RULE_HINT } from '../../../lib/password-rule-hint.ts';
import { useSubmit } from '../../../lib/use-submit.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';

const FIELD_IDS = { password: 'new-password', confirmPassword: 'confirm-new-password' } as const;

/** Codes after which the link itself is no good: the user needs a new one. */
const DEAD_LINK_CODES = new Set(['TEMPORARY_PASSWORD_EXPIRED', 'RESET_INVALID']);

interface NewPasswordFormProps {
  token: string;
  submit: (body: TSetPasswordRequest) => Promise<{ email: string }>;
  submitLabel: string;
  onDone: (email: string) => void;
}

/** New password and its confirmation, for the verification link and the reset link (001 §5, §8). */
export function NewPasswordForm({ token, submit, submitLabel, onDone }: NewPasswordFormProps) {
  const [deadLink, setDeadLink] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
    summary,
    errorSummary,
  } = useValidatedForm<TNewPasswordForm, TNewPasswordForm, keyof typeof FIELD_IDS>(
    ZNewPasswordFormSchema,
    FIELD_IDS,
    {
      defaultValues: { password: '', confirmPassword: '' },
    },
  );

  const show = (title: string, items: IErrorSummaryItem[], linkIsDead = false) => {
    setDeadLink(linkIsDead);
    summary.show(title, items);
  };

  const send = useSubmit({
    title: 'Your password was not saved',
    summary,
    fields: FIELD_IDS,
    setError,
    onFailure: ({ error }) =>
      setDeadLink(
        error instanceof ApiError &&
          (DEAD_LINK_CODES.has(error.code) || error.errors.some((e) => e.source === 'token')),
      ),
  });

  const onValid = async (values: TNewPasswordForm) => {
    setDeadLink(false);
    const outcome = await send(() => submit({ token, ...values }));
    if (outcome.ok) onDone(outcome.value.email);
  };

  const onInvalid = (invalid: FieldErrors<TNewPasswordForm>) => {
    show('There is a problem', invalidFieldItems(invalid, FIELD_IDS));
  };

  return (
    <form
      className="identity-form card"
      onSubmit={handleSubmit(onValid, onInvalid)}
      noValidate
      aria-label="Choose a password"
    >
      <ErrorSummary {...errorSummary}>
        {deadLink ? (
          <p className="error-summary__extra">
            <Link to="/identity/forgot-password">Request a new link</Link>
          </p>
        ) : null}
      </ErrorSummary>
      <TextField
        id={FIELD_IDS.password}
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        hint={PASSWORD_RULE_HINT}
        {...register('password')}
        error={errors.password?.message}
      />
      <TextField
        id={FIELD_IDS.confirmPassword}
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        required
        {...register('confirmPassword')}
        error={errors.confirmPassword?.message}
      />
      <div className="form-actions">
        <SubmitButton busy={isSubmitting}>{isSubmitting ? 'Saving…' : submitLabel}</SubmitButton>
      </div>
    </form>
  );
}
