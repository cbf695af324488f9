/**
 * What the integration pages read of the signed-in user (000 §3), handed in by the account
 * shell: the status and codes for the access rule, and the AutoCheck settings (R7: whether a
 * password is set, never the password).
 */
export interface IIntegrationUser {
  accountStatus: string;
  subscriptionStatus: string;
  subscriptionStatusDescription: string;
  accountStatusDetails: string;
  subscriptions: string[];
  autoCheckId: string;
  autoCheckEnabled: boolean;
  autoCheckAutoPurchase: boolean;
  autoCheckPasswdSet: boolean;
}

export interface IIntegrationPageProps {
  user: IIntegrationUser;
  /** Loads the user again after a change. */
  refetch: () => Promise<unknown>;
}
