import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from '../../../lib/router/router.tsx';
import { errorMessage } from '@dealerpass/domain/messages';
import {
  IDENTITY_TOKEN_PATTERN,
  type TSetPasswordRequest,
} from '@dealerpass/domain/schemas/identity';
import { loadPage } from '../../../lib/full-page-navigation.ts';
import { signInUrl } from '../sign-in-url.ts';
import { NewPasswordForm } from './new-password-form.tsx';
import '../identity.css';

interface PasswordLinkPageProps {
  title: string;
  heading: string;
  intro: string;
  submitLabel: string;
  doneHeading: string;
  /**
   * Sign in at once when the password is set (DECISIONS R6, docs/decisions/017): the server gave
   * this browser a one-time grant, so the sign-in path completes without the password.
   */
  signInWhenDone?: boolean;
  submit: (body: TSetPasswordRequest) => Promise<{ email: string }>;
}

/**
 * The page behind a password link from an e-mail (`?token=`): the verification link after
 * sign-up and the forgot-password link share it (DECISIONS R6).
 */
export function PasswordLinkPage(props: PasswordLinkPageProps) {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  // The sign-up's verification link says where to sign in afterwards (DECISIONS R6).
  const forwardTo = params.get('forwardTo');
  const [doneFor, setDoneFor] = useState<string | null>(null);
  const doneHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    document.title = `${props.title} · DealerPass`;
  }, [props.title]);

  useEffect(() => {
    if (doneFor === null) return;
    doneHeading.current?.focus();
    if (props.signInWhenDone) loadPage(signInUrl(doneFor, forwardTo));
  }, [doneFor, forwardTo, props.signInWhenDone]);

  return (
    <div className="page identity-page">
      <h1>{props.heading}</h1>
      {doneFor !== null ? (
        <section className="card identity-done" aria-labelledby="password-done">
          <h2 id="password-done" ref={doneHeading} tabIndex={-1}>
            {props.doneHeading}
          </h2>
          {props.signInWhenDone ? (
            <p role="status">Signing you in…</p>
          ) : (
            <p>You can now sign in with your new password.</p>
          )}
          <p className="form-actions">
            <a className="button button--primary" href={signInUrl(doneFor, forwardTo)}>
              Sign in
            </a>
          </p>
        </section>
      ) : IDENTITY_TOKEN_PATTERN.test(token) ? (
        <>
          <p className="lead">{props.intro}</p>
          <NewPasswordForm
            token={token}
            submit={props.submit}
            submitLabel={props.submitLabel}
            onDone={setDoneFor}
          />
        </>
      ) : (
        <div className="identity-notice" role="alert">
          <p>{errorMessage('RESET_INVALID')}</p>
          <p>
            <Link to="/identity/forgot-password">Request a new link</Link>
          </p>
        </div>
      )}
    </div>
  );
}
