import { resetPassword } from '../api/reset-password.ts';
import { PasswordLinkPage } from '../components/password-link-page.tsx';

/** /identity/reset-password?token= : the link of a forgot-password e-mail (001 §8). */
export default function ResetPasswordPage() {
  return (
    <PasswordLinkPage
      title="Reset your password"
      heading="Reset your password"
      intro="Choose a new password for your DealerPass ID."
      submitLabel="Reset password"
      doneHeading="Your password has been reset"
      submit={resetPassword}
    />
  );
}
