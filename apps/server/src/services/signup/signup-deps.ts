import type { IMessageVars } from '@dealerpass/domain/messages';
import type { TSignupRequest } from '@dealerpass/domain/schemas/signup-request';
import type { CaptchaVerifier } from '../../adapters/captcha/captcha-verifier.ts';
import type { signupAttempts } from '../../db/schema.ts';
import type { BillingDeps } from '../billing/ledger/billing-deps.ts';

export interface SignupDeps extends BillingDeps {
  captcha: CaptchaVerifier;
  publicUrl: string;
  companyEmailDomain: string;
  messageVars: IMessageVars;
}

/**
 * What is kept of the request while the sign-up is in flight: no captcha, no card (R5), and not
 * the one-time payment token either. The token is spent in this request or never: an attempt
 * resumed after a crash already has its card at the gateway, or is cleared (issue 13).
 */
export type StoredRequest = Omit<TSignupRequest, 'recaptcha' | 'paymentToken'>;
export type AttemptRow = typeof signupAttempts.$inferSelect;
