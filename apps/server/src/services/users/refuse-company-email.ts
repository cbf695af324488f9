import { ERROR_CODES, errorMessage, type IMessageVars } from '@dealerpass/domain/messages';
import { isCompanyEmail } from '@dealerpass/domain/validation/email';
import { AppError } from '../../errors/app-error.ts';

/**
 * R1: an address in the configured company domain (or a sub-domain) never becomes a dealer's.
 * Checked wherever an e-mail can start an account: the lead (sign-up page 1), its partial saves,
 * the sign-up itself and a new DealerPass ID.
 */
export function refuseCompanyEmail(
  email: string,
  deps: { companyEmailDomain: string; messageVars: IMessageVars },
): void {
  if (!isCompanyEmail(email, deps.companyEmailDomain)) return;
  const message = errorMessage(ERROR_CODES.COMPANY_EMAIL_DOMAIN, deps.messageVars);
  throw new AppError(ERROR_CODES.COMPANY_EMAIL_DOMAIN, {
    message,
    errors: [{ source: 'email', message, details: message }],
  });
}
