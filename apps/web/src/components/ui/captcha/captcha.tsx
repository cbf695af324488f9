import { lazy, Suspense } from 'react';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { AltchaCaptcha } from './altcha-captcha.tsx';

const RecaptchaCaptcha = lazy(() => import('./recaptcha-captcha.tsx'));

export interface CaptchaProps {
  /** The captcha value for the request, or null while there is none (not yet solved, expired, reset). */
  onChange: (token: string | null) => void;
  /** Change this number to clear the captcha, e.g. after a failed submit (001 §4). */
  resetSignal: number;
  error?: string | undefined;
}

/** The captcha of the public forms (DECISIONS R8): our ALTCHA widget, or reCAPTCHA when configured. */
export function Captcha(props: CaptchaProps) {
  const config = runtimeConfig().captcha;
  if (config.kind === 'recaptcha') {
    return (
      <Suspense fallback={<p className="captcha__status">Loading verification…</p>}>
        <RecaptchaCaptcha {...props} siteKey={config.siteKey} />
      </Suspense>
    );
  }
  // A new key is a fresh widget: state, pending work and expiry timer all go.
  return (
    <AltchaCaptcha
      key={props.resetSignal}
      onChange={props.onChange}
      error={props.error}
      challengeUrl={config.challengeUrl}
    />
  );
}
