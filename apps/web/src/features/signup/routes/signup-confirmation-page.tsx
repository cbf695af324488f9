import { useEffect } from 'react';
import { useLocation } from '../../../lib/router/router.tsx';
import { SIGNUP_CONFIRMATION } from '@dealerpass/domain/messages/ui-texts';
import { Button } from '../../../components/ui/button.tsx';
import { replacePage } from '../../../lib/full-page-navigation.ts';
import '../signup.css';

/** /signup/confirmation (001 §2): the address comes from navigation state. */
export default function SignupConfirmationPage() {
  const location = useLocation();
  const state = location.state as { email?: unknown } | null;
  const email = typeof state?.email === 'string' ? state.email : '';

  useEffect(() => {
    document.title = 'Verification email sent · DealerPass';
  }, []);

  return (
    <div className="page signup-page">
      <section className="card signup-confirmation" aria-labelledby="confirmation-heading">
        <h1 id="confirmation-heading">{SIGNUP_CONFIRMATION.heading}</h1>
        <p>
          {email ? SIGNUP_CONFIRMATION.instruction(email) : SIGNUP_CONFIRMATION.instructionNoEmail}
        </p>
        <p className="form-note">{SIGNUP_CONFIRMATION.linkNote}</p>
        <div className="form-actions">
          {/* 001 §2: Close replaces the location with /app/login (a server path). */}
          <Button onClick={() => replacePage(SIGNUP_CONFIRMATION.closeTo)}>
            {SIGNUP_CONFIRMATION.close}
          </Button>
        </div>
      </section>
    </div>
  );
}
