/**
 * Staff roles and what each may do (DECISIONS R12): support ⊂ billing ⊂ admin. The server checks
 * every operator-console route against this table and the console hides what a role cannot do.
 */
export const STAFF_ROLES = ['support', 'billing', 'admin'] as const;
export type TStaffRole = (typeof STAFF_ROLES)[number];

const RANK: Readonly<Record<TStaffRole, number>> = { support: 0, billing: 1, admin: 2 };

export function isStaffRole(value: unknown): value is TStaffRole {
  return typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);
}

/** Whether a member of `role` may do what needs `required` (each role includes the ones below). */
export function roleAllows(role: TStaffRole, required: TStaffRole): boolean {
  return RANK[role] >= RANK[required];
}

/**
 * Every staff action with the least role that may take it (R12). The audit rows name these
 * actions; the console shows an action's button only to the roles listed here.
 */
export const STAFF_ACTIONS = {
  // support
  resendVerification: 'support',
  endSessions: 'support',
  block: 'support',
  unblock: 'support',
  replyToContact: 'support',
  // billing
  refund: 'billing',
  chargeback: 'billing',
  balanceAdjustment: 'billing',
  retryRenewal: 'billing',
  adjustSubscription: 'billing',
  complimentaryOn: 'billing',
  complimentaryOff: 'billing',
  createPromotion: 'billing',
  disablePromotion: 'billing',
  exportFinance: 'billing',
  // billing: annual payment by check (R14)
  requestAnnualBilling: 'billing',
  voidInvoice: 'billing',
  resendInvoice: 'billing',
  recordCheck: 'billing',
  returnedCheck: 'billing',
  // admin
  schedulePrice: 'admin',
  withdrawPrice: 'admin',
  createStaff: 'admin',
  resetStaffSecondFactor: 'admin',
  disableStaff: 'admin',
  enableStaff: 'admin',
  changeStaffRole: 'admin',
} as const satisfies Record<string, TStaffRole>;

export type TStaffAction = keyof typeof STAFF_ACTIONS;

export function mayTakeAction(role: TStaffRole, action: TStaffAction): boolean {
  return roleAllows(role, STAFF_ACTIONS[action]);
}
