/**
 * Who may use an integration (000 §2, §6; issue 8 "Access"): an active account that holds the
 * integration's code. The web app's guard and every server route read this one rule.
 */
import { accountFlags, type IAccountStatusInput } from '../account/status.ts';

export const INTEGRATION_CODES = { carfax: 'CF', autoCheck: 'AC' } as const;
export type TIntegrationCode = (typeof INTEGRATION_CODES)[keyof typeof INTEGRATION_CODES];

export interface IIntegrationAccount extends IAccountStatusInput {
  subscriptions: readonly string[];
}

export type TIntegrationAccess = 'allowed' | 'blocked' | 'inactive' | 'not-held';

export function integrationAccess(
  account: IIntegrationAccount,
  code: TIntegrationCode,
): TIntegrationAccess {
  const flags = accountFlags(account);
  if (flags.blocked) return 'blocked';
  if (!flags.active) return 'inactive';
  if (!account.subscriptions.includes(code)) return 'not-held';
  return 'allowed';
}

export function canUseIntegration(account: IIntegrationAccount, code: TIntegrationCode): boolean {
  return integrationAccess(account, code) === 'allowed';
}
