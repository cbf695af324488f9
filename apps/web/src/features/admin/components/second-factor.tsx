import { lazy, Suspense, useEffect, useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZTotpCodeRequestSchema, type TTotpCodeRequest } from '@dealerpass/domain/admin/totp';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { TextField } from '../../../components/ui/fields.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { loadPage } from '../../../lib/full-page-navigation.ts';
import { useSubmit } from '../../../lib/use-submit.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';
import { startEnrolment } from '../api/start-enrolment.ts';
import { getStaffSessionQueryOptions, type IStaffSession } from '../api/get-staff-session.ts';
import { verifySecondFactor } from '../api/verify-second-factor.ts';
import { LoadFailed, Loading } from '../../../components/ui/query-state.tsx';
import { useAdminTitle } from '../use-admin-title.ts';

const CODE_FIELD = { code: 'admin-totp-code' } as const;

// Its encoder is loaded only when a member enrols.
const TotpQrCode = lazy(() => import('./totp-qr-code.tsx'));

/** "JBSW Y3DP EHPK 3PXP": groups of four are easier to copy into an app by hand. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

/**
 * The second step of every staff sign-in (R12, decision 026): a member without an authenticator
 * enrols (the secret is offered to this session and kept only once a code from it is verified),
 * everyone else types the current code. Nothing else of the console opens before.
 */
export function SecondFactor({ session }: { session: IStaffSession }) {
  useAdminTitle(session.enrolled ? 'Sign-in code' : 'Set up your authenticator');
  // The password step ends here with a new page: focus starts on what comes next, the code's
  // field, or the enrolment's title (its first step is to read), never on <body> (issue 25).
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (session.enrolled) document.getElementById(CODE_FIELD.code)?.focus();
    else title.current?.focus();
  }, [session.enrolled]);
  return (
    <div className="admin-gate">
      <h1 ref={title} tabIndex={-1}>
        {session.enrolled ? 'Enter your sign-in code' : 'Set up your authenticator'}
      </h1>
      <p>
        Signed in as <strong>{session.name}</strong> ({session.email}).
      </p>
      {session.enrolled ? (
        <>
          <p>
            Open your authenticator app and type the 6-digit code it shows for DealerPass staff.
          </p>
          <CodeForm />
        </>
      ) : (
        <Enrolment />
      )}
    </div>
  );
}

function Enrolment() {
  const enrolment = useMutation({ mutationFn: startEnrolment });
  // One secret per visit: StrictMode runs effects twice, and each call would offer a new one.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    enrolment.mutate();
  }, [enrolment]);

  if (enrolment.isError) {
    return (
      <LoadFailed
        text="A new authenticator secret could not be made."
        error={enrolment.error}
        onRetry={() => enrolment.mutate()}
      />
    );
  }
  if (!enrolment.data) return <Loading text="Making your authenticator secret…" />;
  const { secret, otpauthUri } = enrolment.data;
  return (
    <>
      <section className="admin-enrolment card" aria-labelledby="admin-enrolment-title">
        <h2 id="admin-enrolment-title">1. Add DealerPass staff to your authenticator app</h2>
        <p>Scan this code with the app’s camera:</p>
        <Suspense fallback={<div className="admin-qr admin-qr--loading" />}>
          <TotpQrCode uri={otpauthUri} />
        </Suspense>
        <p>
          Or choose “enter a setup key” in the app (time-based, 6 digits) and type this key. It is
          shown only now.
        </p>
        <p className="admin-secret">
          <span className="visually-hidden">Setup key: </span>
          <code data-testid="totp-secret">{groupSecret(secret)}</code>
        </p>
        <p>
          On a phone, this link opens the app directly:{' '}
          <a href={otpauthUri} className="admin-break">
            add to authenticator
          </a>
          .
        </p>
        <details>
          <summary>Show the setup link as text</summary>
          <p className="admin-break">
            <code data-testid="totp-uri">{otpauthUri}</code>
          </p>
        </details>
      </section>
      <section aria-labelledby="admin-enrolment-code-title">
        <h2 id="admin-enrolment-code-title" className="admin-step-title">
          2. Type the code the app shows
        </h2>
        <CodeForm />
      </section>
    </>
  );
}

function CodeForm() {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isSubmitting },
    summary,
    onInvalid,
    errorSummary,
  } = useValidatedForm<{ code: string }, TTotpCodeRequest, 'code'>(
    ZTotpCodeRequestSchema,
    CODE_FIELD,
    { defaultValues: { code: '' } },
  );

  const send = useSubmit({
    title: 'The code was not accepted',
    summary,
    fields: CODE_FIELD,
    setError,
    onFailure: ({ error }) => {
      // Five wrong codes end the session (decision 026): sign in again from the start.
      if (error instanceof ApiError && error.status === 401) loadPage('/admin/login');
      else setValue('code', '');
    },
  });

  const onValid = async (values: TTotpCodeRequest) => {
    const outcome = await send(() => verifySecondFactor(values));
    if (outcome.ok) {
      queryClient.setQueryData(getStaffSessionQueryOptions().queryKey, outcome.value);
    }
  };

  return (
    <form className="admin-code-form" onSubmit={handleSubmit(onValid, onInvalid)} noValidate>
      <ErrorSummary {...errorSummary} />
      <TextField
        id={CODE_FIELD.code}
        label="6-digit code"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={7}
        spellCheck={false}
        required
        {...register('code')}
        error={errors.code?.message}
      />
      <div className="form-actions">
        <SubmitButton busy={isSubmitting}>{isSubmitting ? 'Checking…' : 'Continue'}</SubmitButton>
      </div>
    </form>
  );
}
