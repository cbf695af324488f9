import { useState } from 'react';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { ApiError } from '../../../lib/api-client.ts';

/**
 * A captcha the server asks for only after repeated failed sign-ins for an account
 * (docs/decisions/016). Once asked, every attempt carries a fresh one: each is spent by the
 * attempt that carries it, so after a failure the widget starts over.
 */
export function useCaptchaOnDemand() {
  const [asked, setAsked] = useState(false);
  const [resetSignal, setResetSignal] = useState(0);
  return {
    asked,
    resetSignal,
    afterFailure(error: unknown) {
      if (asked) setResetSignal((n) => n + 1);
      if (error instanceof ApiError && error.code === ERROR_CODES.SIGN_IN_CAPTCHA_REQUIRED) {
        setAsked(true);
      }
    },
  };
}
