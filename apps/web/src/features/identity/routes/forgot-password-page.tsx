import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm, type FieldErrors } from 'react-hook-form';
import { errorMessage } from '@dealerpass/domain/messages';
import {
  ZForgotPasswordRequestSchema,
  type TForgotPasswordRequest,
} from '@dealerpass/domain/schemas/identity';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { Captcha } from '../../../components/ui/captcha/captcha.tsx';
import {
  ErrorSummary,
  useErrorSummary,
  type IErrorSummaryItem,
} from '../../../components/ui/error-summary.tsx';
import { TextField } from '../../../components/ui/fields.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSubmit } from '../../../lib/use-submit.ts';
import { requestPasswordReset } from '../api/request-password-reset.ts';
import '../identity.css';

const EMAIL_ID = 'forgot-password-email';

/**
 * /identity/forgot-password (001 §8): the DealerPass ID's e-mail and a captcha; the server mails
 * a reset link, or answers 404 'Username was not found. Please try again.'.
 */
export default function ForgotPasswordPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [captchaReset, setCaptchaReset] = useState(0);
  const summary = useErrorSummary();
  const sentHeading = useRef<HTMLHeadingElement>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<TForgotPasswordRequest>({
    resolver: zodResolver(ZForgotPasswordRequestSchema),
    mode: 'onTouched',
    shouldFocusError: false,
    defaultValues: { email: '', recaptcha: '' },
  });

  useEffect(() => {
    document.title = 'Forgot password · DealerPass';
  }, []);

  useEffect(() => {
    if (sentTo !== null) sentHeading.current?.focus();
  }, [sentTo]);

  const send = useSubmit({
    title: 'We could not send a link',
    summary,
    fields: { email: EMAIL_ID },
    setError,
    onFailure: ({ error }) => {
      // The captcha is spent or refused either way: ask for a new one.
      setValue('recaptcha', '');
      setCaptchaReset((n) => n + 1);
      // 001 §8: an unknown address is told on the e-mail field, whatever the body says.
      if (error instanceof ApiError && error.status === 404) {
        const message = errorMessage('USERNAME_NOT_FOUND');
        setError('email', { message });
        summary.show('We could not send a link', [{ message, fieldId: EMAIL_ID }]);
      }
    },
  });

  const onValid = async (values: TForgotPasswordRequest) => {
    const outcome = await send(() => requestPasswordReset(values));
    if (outcome.ok) setSentTo(values.email);
  };

  const onInvalid = (invalid: FieldErrors<TForgotPasswordRequest>) => {
    const items: IErrorSummaryItem[] = [];
    if (invalid.email?.message) items.push({ message: invalid.email.message, fieldId: EMAIL_ID });
    if (invalid.recaptcha?.message) items.push({ message: invalid.recaptcha.message });
    summary.show('There is a problem', items);
  };

  return (
    <div className="page identity-page">
      <h1>Forgot password</h1>
      {sentTo !== null ? (
        <section className="card identity-done" aria-labelledby="reset-link-sent">
          <h2 id="reset-link-sent" ref={sentHeading} tabIndex={-1}>
            Check your email
          </h2>
          <p>
            We have sent a link to reset your password to <strong>{sentTo}</strong>. Open it from
            that email to choose a new password.
          </p>
          <p>
            Nothing arrived after a few minutes? Check your spam folder, or{' '}
            <button
              type="button"
              className="button button--link"
              onClick={() => {
                setSentTo(null);
                setValue('recaptcha', '');
                setCaptchaReset((n) => n + 1);
              }}
            >
              send the link again
            </button>
            .
          </p>
        </section>
      ) : (
        <>
          <p className="lead">
            Enter the email address of your DealerPass ID and we will send you a link to reset your
            password.
          </p>
          <form
            className="identity-form card"
            onSubmit={handleSubmit(onValid, onInvalid)}
            noValidate
            aria-label="Reset link request"
          >
            <ErrorSummary {...summary.props} />
            <TextField
              id={EMAIL_ID}
              label="Email"
              type="email"
              autoComplete="email"
              spellCheck={false}
              required
              {...register('email')}
              error={errors.email?.message}
            />
            <Controller
              control={control}
              name="recaptcha"
              render={({ fieldState }) => (
                <Captcha
                  resetSignal={captchaReset}
                  error={fieldState.error?.message}
                  onChange={(token) =>
                    setValue('recaptcha', token ?? '', {
                      shouldValidate: token !== null,
                      shouldTouch: true,
                    })
                  }
                />
              )}
            />
            <div className="form-actions">
              <SubmitButton busy={isSubmitting}>
                {isSubmitting ? 'Sending…' : 'Send reset link'}
              </SubmitButton>
            </div>
          </form>
        </>
      )}
    </div>
  );
}
