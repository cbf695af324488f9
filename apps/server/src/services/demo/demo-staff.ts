import type { TStaffRole } from '@dealerpass/domain/admin/roles';

/**
 * The operator console's demo staff (R12, docs/decisions/026): one member per role, each with a
 * fixed authenticator secret printed in the README, so anyone trying the demo can compute the
 * codes (`npm run staff:code -- support`). Seeded only in the demo, development and test
 * configurations, never by a production server, whatever SEED_DEMO_DATA says: these secrets are
 * public.
 */
export interface DemoStaffMember {
  email: string;
  name: string;
  role: TStaffRole;
  /** Base32 TOTP secret; null: the member enrols an authenticator at the first sign-in. */
  totpSecret: string | null;
}

export const DEMO_STAFF_PASSWORD = 'Staff!Pass2026';

export const DEMO_STAFF: readonly DemoStaffMember[] = [
  {
    email: 'support.staff@example.com',
    name: 'Sam Support',
    role: 'support',
    totpSecret: 'DPSUPPORTDEMOTOTPSECRETKEY234567',
  },
  {
    email: 'billing.staff@example.com',
    name: 'Bailey Billing',
    role: 'billing',
    totpSecret: 'DPBILLINGDEMOTOTPSECRETKEY234567',
  },
  {
    email: 'admin.staff@example.com',
    name: 'Avery Admin',
    role: 'admin',
    totpSecret: 'DPADMINDEMOTOTPSECRETKEY23456777',
  },
];
