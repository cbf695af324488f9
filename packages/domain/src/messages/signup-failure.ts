/** The sign-up v2 failure toast (001 §8): which text a failed `POST /api/v2/signup` shows. */
import { GENERIC_FORM_ERROR } from '../messages.ts';

export const SIGNUP_FAILURE_TOAST = { durationMs: 5000, position: 'bottom-center' } as const;

export const SIGNUP_FAILURE_SOURCES = {
  promotionCodeNotValid: 'promotionCodeNotValid',
  recaptchaVerification: 'recaptchaVerification',
} as const;

export const SIGNUP_FAILURE_TEXTS = {
  badRequest: 'Email not valid',
  promotionCodeNotValid: 'Please enter the valid promotion code',
  recaptchaVerification: 'reCAPTCHA expired, Go back and validate the reCAPTCHA again',
} as const;

export interface ISignupFailureError {
  source?: string;
  message?: string;
  details?: string;
  code?: string;
}

/** The failure body the server sends and the browser reads. */
export interface ISignupFailureBody {
  statusCode?: number;
  errors?: ISignupFailureError[];
}

/**
 * 001 §8, in its order: 400 → details or 'Email not valid'; 409 → the message; the two named
 * sources; otherwise the message, else the source. With nothing usable: 'Something went wrong!'.
 */
export function signupFailureMessage(body: ISignupFailureBody | null | undefined): string {
  const first = body?.errors?.[0];
  if (body?.statusCode === 400) return first?.details || SIGNUP_FAILURE_TEXTS.badRequest;
  if (body?.statusCode === 409 && first?.message) return first.message;
  if (first?.source === SIGNUP_FAILURE_SOURCES.promotionCodeNotValid) {
    return SIGNUP_FAILURE_TEXTS.promotionCodeNotValid;
  }
  if (first?.source === SIGNUP_FAILURE_SOURCES.recaptchaVerification) {
    return SIGNUP_FAILURE_TEXTS.recaptchaVerification;
  }
  return first?.message || first?.source || GENERIC_FORM_ERROR;
}
