import { setPassword } from '../api/set-password.ts';
import { PasswordLinkPage } from '../components/password-link-page.tsx';

/** /identity/set-password?token= : the verification link of a new DealerPass ID (DECISIONS R6). */
export default function SetPasswordPage() {
  return (
    <PasswordLinkPage
      title="Set your password"
      heading="Set your password"
      intro="Choose the password for your DealerPass ID."
      submitLabel="Set password"
      doneHeading="Your password is set"
      signInWhenDone
      submit={setPassword}
    />
  );
}
